import { Component, lazy, Suspense, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { PageLoadBoundary, PageLoadError } from './page-load-boundary';

const UnreachablePage = lazy(() => Promise.reject(new PageLoadError(new TypeError('Failed to fetch dynamically imported module'))));

function Broken(): ReactNode {
  throw new Error('render bug');
}

/** Stands for whatever is above: shows what reached it. */
class Above extends Component<{ children: ReactNode }, { message: string | null }> {
  state = { message: null };
  static getDerivedStateFromError(err: Error) {
    return { message: err.message };
  }
  render() {
    return this.state.message ? <p>Above caught: {this.state.message}</p> : this.props.children;
  }
}

describe('PageLoadBoundary', () => {
  it("says a page's code did not load, in the page's place, and offers a reload", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <PageLoadBoundary resetKey="/teams/t-1">
        <Suspense fallback={null}>
          <UnreachablePage />
        </Suspense>
      </PageLoadBoundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent("This page didn't load");
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it('says it on the whole screen for pages without the navigation', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <PageLoadBoundary fullScreen resetKey="/display/game/g-1">
        <Suspense fallback={null}>
          <UnreachablePage />
        </Suspense>
      </PageLoadBoundary>,
    );
    expect(await screen.findByRole('heading', { name: "This page didn't load" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('lets the next page render once the location moves on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(
      <PageLoadBoundary resetKey="/teams/t-1">
        <Suspense fallback={null}>
          <UnreachablePage />
        </Suspense>
      </PageLoadBoundary>,
    );
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    rerender(
      <PageLoadBoundary resetKey="/teams">
        <p>Teams</p>
      </PageLoadBoundary>,
    );
    expect(screen.getByText('Teams')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('passes every other error on, as if it were not there', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Above>
        <PageLoadBoundary resetKey="/">
          <Broken />
        </PageLoadBoundary>
      </Above>,
    );
    expect(screen.getByText('Above caught: render bug')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
