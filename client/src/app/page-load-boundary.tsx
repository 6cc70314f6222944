// Lazy pages (app-routes.tsx) fetch their code on first visit. When that
// fetch fails (the rink's network dropped, or a deploy replaced the chunks
// this tab knows about) the page says so and offers a reload instead of the
// whole app going blank. Every other error passes through untouched.

import { Component, type ReactNode } from 'react';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { RinkIcon } from '../components/ui/icons';
import { Logo } from '../components/ui/logo';

/** The failed import() of a lazy page's code, told apart from errors thrown while rendering. */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    super('This page could not be loaded.', { cause });
    this.name = 'PageLoadError';
  }
}

interface PageLoadBoundaryProps {
  /** Say it on the whole screen (pages without the app's navigation) rather than in the page's place. */
  fullScreen?: boolean;
  /** A change clears a shown failure: pass the location's path, so moving on to another page works. */
  resetKey: string;
  children: ReactNode;
}

interface PageLoadBoundaryState {
  caught: { thrown: unknown } | null;
}

export class PageLoadBoundary extends Component<PageLoadBoundaryProps, PageLoadBoundaryState> {
  state: PageLoadBoundaryState = { caught: null };

  static getDerivedStateFromError(thrown: unknown): PageLoadBoundaryState {
    return { caught: { thrown } };
  }

  componentDidUpdate(prev: PageLoadBoundaryProps) {
    if (this.state.caught && prev.resetKey !== this.props.resetKey) this.setState({ caught: null });
  }

  render() {
    const { caught } = this.state;
    if (!caught) return this.props.children;
    if (caught.thrown instanceof PageLoadError) return <PageLoadFailed fullScreen={this.props.fullScreen ?? false} />;
    // Not a page load: on to the boundary above, as if this one were not here.
    throw caught.thrown;
  }
}

function PageLoadFailed({ fullScreen }: { fullScreen: boolean }) {
  const title = "This page didn't load";
  const text = "Rinkside couldn't fetch this page. Check the connection, then reload.";
  const reload = <Button onClick={() => window.location.reload()}>Reload</Button>;
  if (fullScreen) {
    return (
      <div className="splash" role="alert">
        <Logo />
        <h1 className="splash__title">{title}</h1>
        <p className="muted">{text}</p>
        {reload}
      </div>
    );
  }
  return (
    <Card role="alert">
      <EmptyState icon={<RinkIcon size={28} />} title={title} action={reload}>
        {text}
      </EmptyState>
    </Card>
  );
}
