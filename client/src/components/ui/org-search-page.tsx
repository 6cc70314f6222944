// The facilities and teams pages: a header with "New …", a search box, and
// the matches (all of them, by name, before anything is typed) with "load
// more". The feature says the words and how one row looks.

import { Fragment, useState, type ReactNode } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../config/constants';
import { errorMessage } from '../../lib/api';
import { useOrgSearch, type OrgKind } from '../../lib/orgs';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { Alert } from './alert';
import { ButtonLink } from './button';
import { Card } from './card';
import { EmptyState } from './empty-state';
import { PlusIcon } from './icons';
import { ListSkeleton } from './list-row';
import { LoadMore } from './load-more';
import { PageHeader } from './page-header';
import { SearchBox } from './search-box';

export interface OrgSearchPageProps<T extends { id: string }> {
  kind: OrgKind;
  eyebrow: string;
  title: string;
  subtitle: string;
  /** The header's "New …" button. */
  create: { label: string; testId: string };
  search: { label: string; placeholder: string; testId: string };
  empty: {
    icon: ReactNode;
    /** Titles and texts for no match of `q`, or (q empty) none at all. */
    title: (q: string) => string;
    text: (q: string) => string;
    actionLabel: string;
  };
  renderRow: (item: T) => ReactNode;
}

export function OrgSearchPage<T extends { id: string }>({ kind, eyebrow, title, subtitle, create, search: words, empty, renderRow }: OrgSearchPageProps<T>) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useOrgSearch<T>(kind, q);
  const items = search.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="stack-lg">
      <PageHeader
        eyebrow={eyebrow}
        title={title}
        subtitle={subtitle}
        actions={
          <ButtonLink to={`/${kind}/new`} variant="primary" icon={<PlusIcon size={18} />} data-testid={create.testId}>
            {create.label}
          </ButtonLink>
        }
      />
      <SearchBox value={text} onChange={setText} label={words.label} placeholder={words.placeholder} busy={search.isFetching && !search.isPending} testId={words.testId} />
      <Card padded={false}>
        {search.isPending ? (
          <ListSkeleton />
        ) : search.isError ? (
          <div className="card__pad">
            <Alert>{errorMessage(search.error)}</Alert>
          </div>
        ) : items.length === 0 ? (
          <EmptyState icon={empty.icon} title={empty.title(q)} action={<ButtonLink to={`/${kind}/new`}>{empty.actionLabel}</ButtonLink>}>
            {empty.text(q)}
          </EmptyState>
        ) : (
          <>
            <ul className="list">
              {items.map((item) => (
                <Fragment key={item.id}>{renderRow(item)}</Fragment>
              ))}
            </ul>
            <LoadMore hasMore={search.hasNextPage} loading={search.isFetchingNextPage} onLoadMore={() => void search.fetchNextPage()} />
          </>
        )}
      </Card>
    </div>
  );
}
