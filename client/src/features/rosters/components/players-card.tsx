// The players card: the sortable table, and for managers the add / edit
// panel that opens above it (one at a time, so it fits a phone).

import { useEffect, useRef, useState } from 'react';
import type { RosterDocument, RosterViewer } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PeopleIcon, PlusIcon } from '../../../components/ui/icons';
import { membersText } from '../../../components/ui/roster-list';
import { isFull, sortPlayers, type SortKey } from '../model/roster';
import { PlayerForm } from './player-form';
import { PlayersTable } from './players-table';

type Panel = { kind: 'add' } | { kind: 'edit'; userId: string } | null;

export function PlayersCard({ doc, viewer, myId }: { doc: RosterDocument; viewer: RosterViewer; myId: string }) {
  const [sort, setSort] = useState<SortKey>('number');
  const [panel, setPanel] = useState<Panel>(null);
  const [note, setNote] = useState<string | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const canManage = viewer.canManagePlayers && doc.status !== 'ARCHIVED';
  const editing = panel?.kind === 'edit' ? (doc.players.find((p) => p.userId === panel.userId) ?? null) : null;

  // The player being edited left (or was taken off) meanwhile: close.
  if (panel?.kind === 'edit' && !editing) setPanel(null);
  // The viewer may no longer manage players (or the roster was archived): close.
  const [couldManage, setCouldManage] = useState(canManage);
  if (couldManage !== canManage) {
    setCouldManage(canManage);
    if (!canManage) setPanel(null);
  }
  useEffect(() => {
    if (panel) panelRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [panel]);

  const players = sortPlayers(doc.players, sort);
  const full = isFull(doc);

  return (
    <Card padded={false} data-testid="players-card">
      <div className="card__pad card__pad--header">
        <CardHeader
          title="Players"
          subtitle={membersText(doc)}
          action={
            canManage ? (
              <Button
                size="sm"
                variant={panel?.kind === 'add' ? 'secondary' : 'primary'}
                icon={<PlusIcon size={16} />}
                onClick={() => {
                  setNote(null);
                  setPanel(panel?.kind === 'add' ? null : { kind: 'add' });
                }}
                aria-expanded={panel?.kind === 'add'}
                disabled={full && panel?.kind !== 'add'}
                title={full ? 'The roster is full' : undefined}
                data-testid="add-player"
              >
                Add player
              </Button>
            ) : undefined
          }
        />
      </div>
      {canManage && full && (
        <div className="card__pad roster-card-note">
          <Alert tone="warning">The roster is full ({doc.maxMembers}). Raise the limit in Edit, or take someone off, to add more.</Alert>
        </div>
      )}
      {note && (
        <div className="card__pad roster-card-note">
          <Alert tone="success">{note}</Alert>
        </div>
      )}
      <div ref={panelRef}>
        {panel?.kind === 'add' && (
          <PlayerForm
            rosterId={doc.id}
            onRoster={doc.players.map((p) => p.userId)}
            onDone={(msg) => {
              setNote(msg);
              setPanel(null);
            }}
            onCancel={() => setPanel(null)}
          />
        )}
        {editing && (
          <PlayerForm
            key={editing.userId}
            rosterId={doc.id}
            player={editing}
            onRoster={doc.players.map((p) => p.userId)}
            onDone={(msg) => {
              setNote(msg);
              setPanel(null);
            }}
            onCancel={() => setPanel(null)}
          />
        )}
      </div>
      {players.length === 0 ? (
        <EmptyState icon={<PeopleIcon size={26} />} title="No players yet">
          {canManage ? 'Add players yourself, or let them ask to join from this page.' : 'Be the first: ask to join.'}
        </EmptyState>
      ) : (
        <PlayersTable
          players={players}
          sort={sort}
          onSort={setSort}
          myId={myId}
          canManage={canManage}
          editingId={editing?.userId ?? null}
          onEdit={(userId) => {
            setNote(null);
            setPanel(panel?.kind === 'edit' && panel.userId === userId ? null : { kind: 'edit', userId });
          }}
        />
      )}
    </Card>
  );
}
