// "Availability" on the roster page (docs/availability.md), for the
// roster's players and the team's staff: each game coming up, soonest
// first, with when it is (the rink's clock), the lock, the counts per group
// and what is short; my own answer in one tap; and who said what, by group.
// The staff also set a player's answer on a native game, nudge everyone who
// has not answered, and, short, post a call for subs for exactly what is
// missing. Live: the `availability:{rosterId}` topic moves every count.

import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { AvailabilityAnswer, AvailabilityPlayer, GameAvailability } from '../../../lib/api-types';
import { AVAILABILITY_GROUPS } from '../../../lib/api-types';
import { displayName, POSITION_SHORT } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CalendarIcon, CheckIcon, MegaphoneIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useAvailabilityBoard, useImportedGameAnswers, useNudge, usePostSubsCall, useSetAvailability } from '../api/availability';
import {
  answerWords,
  callFor,
  countLines,
  GROUP_LABELS,
  isLocked,
  isShort,
  lockText,
  mayAnswerIn,
  noAnswerCount,
  nudgedAgo,
  nudgeLabel,
  shortWords,
  sideLine,
  staffSetsAnswers,
  subsCallBody,
  whenText,
} from '../model/availability';
import '../availability.css';
import { useMyStatuses } from '../../../lib/me';

/** The clock re-reads this often: "Nudged 3 min ago" and a lock passing. */
const CLOCK_MS = 30_000;

export interface AvailabilityCardProps {
  rosterId: string;
  /** The roster's team: whose call for subs the board posts. */
  teamId: string;
  myId: string;
  /** The team's owner or a manager (the roster's `viewer.canManagePlayers`). */
  isStaff: boolean;
}

export function AvailabilityCard({ rosterId, teamId, myId, isStaff }: AvailabilityCardProps) {
  const { board, rest, took } = useAvailabilityBoard(rosterId);
  const now = useNow(CLOCK_MS);
  if (!board) {
    // Not mine to read after all (403/404), or a server without the board: stay away.
    if (rest.isError && rest.error instanceof ApiError && rest.error.status >= 400 && rest.error.status < 500) return null;
    return (
      <Card className="avail-card" data-testid="availability-card">
        <CardHeader title="Availability" />
        {rest.isError ? (
          <Alert
            action={
              <Button size="sm" variant="secondary" onClick={() => void rest.refetch()}>
                Try again
              </Button>
            }
          >
            {errorMessage(rest.error)}
          </Alert>
        ) : (
          <div className="center-pad">
            <Spinner label="Loading availability" />
          </div>
        )}
      </Card>
    );
  }
  return (
    <Card className="avail-card" data-testid="availability-card">
      <CardHeader title="Availability" subtitle="Who’s in for the games coming up." />
      {board.games.length === 0 ? (
        <p className="avail-empty muted" data-testid="avail-empty">
          <CalendarIcon size={18} /> No games in the next 60 days.
        </p>
      ) : (
        <ol className="avail-games">
          {board.games.map((g) => (
            <AvailabilityGame key={g.gameId} game={g} rosterId={rosterId} teamId={teamId} myId={myId} isStaff={isStaff} now={now} took={took} />
          ))}
        </ol>
      )}
    </Card>
  );
}

interface GameProps {
  game: GameAvailability;
  rosterId: string;
  teamId: string;
  myId: string;
  isStaff: boolean;
  now: number;
  took: (game: GameAvailability) => void;
}

function AvailabilityGame({ game, rosterId, teamId, myId, isStaff, now, took }: GameProps) {
  const answer = useSetAvailability(rosterId, took);
  const nudge = useNudge(rosterId, took);
  useImportedGameAnswers(rosterId, game, took);
  const [showPlayers, setShowPlayers] = useState(false);
  const me = game.players.find((p) => p.userId === myId) ?? null;
  const locked = isLocked(game, now);
  const lock = lockText(game, now);
  const short = shortWords(game.short);
  const waiting = noAnswerCount(game);
  const started = Date.parse(game.startsAt) <= now;
  const staffSets = staffSetsAnswers(game, isStaff);
  const href = game.kind === 'GAME' ? `/games/${game.gameId}` : `/events/${game.gameId}`;

  const pendingFor = (userId: string, a: AvailabilityAnswer) => answer.isPending && answer.variables?.userId === userId && answer.variables.answer === a;
  const set = (userId: string, a: AvailabilityAnswer) => answer.mutate({ gameId: game.gameId, userId, answer: a });

  return (
    <li className="avail-game" data-testid={`avail-game-${game.gameId}`}>
      <div className="avail-game__head">
        <div className="avail-game__what">
          <Link to={href} className="avail-game__title">
            {game.title}
          </Link>
          <span className="avail-game__meta" data-testid="avail-when">
            {sideLine(game)} · {whenText(game, now)}
            {game.place && ` · ${game.place}`}
          </span>
        </div>
        {lock && (
          <span className={`avail-lock${locked ? ' avail-lock--closed' : ''}`} data-testid="avail-lock">
            {lock}
          </span>
        )}
      </div>

      <ul className="avail-counts" data-testid="avail-counts">
        {countLines(game.counts).map((l) => (
          <li key={l.group} className={`avail-count avail-count--${l.group}`} data-testid={`avail-count-${l.group}`}>
            {l.text}
          </li>
        ))}
      </ul>
      {short && (
        <p className="avail-short" data-testid="avail-short">
          {short}
        </p>
      )}

      {me && (
        <div className="avail-me" data-testid="avail-me">
          <span className="avail-me__label">
            Your answer:{' '}
            <strong className={`avail-answer avail-answer--${toneOf(me.answer)}`} data-testid="avail-my-answer">
              {answerWords(me.answer)}
            </strong>
            {me.late && <span className="avail-late">late</span>}
          </span>
          <span className="avail-me__buttons">
            <Button
              size="sm"
              variant={me.answer === 'IN' ? 'primary' : 'secondary'}
              aria-pressed={me.answer === 'IN'}
              loading={pendingFor(myId, 'IN')}
              disabled={answer.isPending || !mayAnswerIn(game, isStaff, now)}
              onClick={() => set(myId, 'IN')}
              data-testid="avail-me-in"
            >
              In
            </Button>
            <Button
              size="sm"
              variant={me.answer === 'OUT' ? 'primary' : 'secondary'}
              aria-pressed={me.answer === 'OUT'}
              loading={pendingFor(myId, 'OUT')}
              disabled={answer.isPending}
              onClick={() => set(myId, 'OUT')}
              data-testid="avail-me-out"
            >
              Out
            </Button>
          </span>
          {!mayAnswerIn(game, isStaff, now) && me.answer !== 'IN' && <span className="avail-me__note">Answers are locked — you can still say you’re out.</span>}
        </div>
      )}
      {answer.isError && (
        <div data-testid="avail-answer-error">
          <Alert>{errorMessage(answer.error)}</Alert>
        </div>
      )}

      {isStaff && (waiting > 0 || game.nudgedAt || (isShort(game) && !started)) && (
        <div className="avail-tools" data-testid="avail-tools">
          {waiting > 0 && (
            <Button size="sm" variant="secondary" loading={nudge.isPending} onClick={() => nudge.mutate({ game })} data-testid="avail-nudge">
              {nudgeLabel(waiting)}
            </Button>
          )}
          {game.nudgedAt && (
            <span className="avail-tools__note" data-testid="avail-nudged">
              {nudgedAgo(game.nudgedAt, now)}
            </span>
          )}
          {nudge.isSuccess && nudge.data.nudged === 0 && (
            <span className="avail-tools__note" data-testid="avail-nudged-none">
              Everyone has answered.
            </span>
          )}
          {isShort(game) && !started && <SubsCall game={game} teamId={teamId} now={now} />}
        </div>
      )}
      {nudge.isError && (
        <div data-testid="avail-nudge-error">
          <Alert tone={nudge.error instanceof ApiError && nudge.error.status === 409 ? 'warning' : 'error'}>{errorMessage(nudge.error)}</Alert>
        </div>
      )}

      {game.players.length > 0 && (
        <div className="avail-players">
          <button type="button" className="avail-players__toggle" aria-expanded={showPlayers} onClick={() => setShowPlayers((s) => !s)} data-testid="avail-players-toggle">
            {showPlayers ? 'Hide players' : `Show players (${game.players.length})`}
          </button>
          {showPlayers && (
            <div className="avail-players__groups" data-testid="avail-players">
              {AVAILABILITY_GROUPS.map((group) => {
                const players = game.players.filter((p) => p.group === group.toUpperCase());
                if (players.length === 0) return null;
                return (
                  <section key={group} className="avail-group" aria-label={GROUP_LABELS[group]}>
                    <h4 className="avail-group__title">{GROUP_LABELS[group]}</h4>
                    <ul className="avail-group__list">
                      {players.map((p) => (
                        <PlayerRow key={p.userId} player={p} isMe={p.userId === myId} staffSets={staffSets} pendingFor={pendingFor} busy={answer.isPending} onSet={set} />
                      ))}
                    </ul>
                  </section>
                );
              })}
            </div>
          )}
        </div>
      )}
    </li>
  );
}

function toneOf(answer: AvailabilityAnswer | null): 'in' | 'out' | 'ask' {
  return answer === 'IN' ? 'in' : answer === 'OUT' ? 'out' : 'ask';
}

function PlayerRow({
  player,
  isMe,
  staffSets,
  pendingFor,
  busy,
  onSet,
}: {
  player: AvailabilityPlayer;
  isMe: boolean;
  staffSets: boolean;
  pendingFor: (userId: string, a: AvailabilityAnswer) => boolean;
  busy: boolean;
  onSet: (userId: string, a: AvailabilityAnswer) => void;
}) {
  const name = displayName(player);
  return (
    <li className={`avail-player${isMe ? ' avail-player--me' : ''}`} data-testid={`avail-player-${player.userId}`}>
      <span className="avail-player__num">{player.jerseyNumber ?? ''}</span>
      <span className="avail-player__name">
        <Link to={`/users/${player.userId}`}>{name}</Link>
        {player.position && <span className="avail-player__pos">{POSITION_SHORT[player.position]}</span>}
      </span>
      <span className={`avail-answer avail-answer--${toneOf(player.answer)}`} data-testid="avail-answer">
        {answerWords(player.answer)}
      </span>
      {player.late && (
        <span className="avail-late" data-testid="avail-late">
          late
        </span>
      )}
      {staffSets && (
        <span className="avail-player__set">
          <Button
            size="sm"
            variant={player.answer === 'IN' ? 'primary' : 'ghost'}
            aria-pressed={player.answer === 'IN'}
            aria-label={`${name}: in`}
            loading={pendingFor(player.userId, 'IN')}
            disabled={busy}
            onClick={() => onSet(player.userId, 'IN')}
            data-testid={`avail-set-in-${player.userId}`}
          >
            In
          </Button>
          <Button
            size="sm"
            variant={player.answer === 'OUT' ? 'primary' : 'ghost'}
            aria-pressed={player.answer === 'OUT'}
            aria-label={`${name}: out`}
            loading={pendingFor(player.userId, 'OUT')}
            disabled={busy}
            onClick={() => onSet(player.userId, 'OUT')}
            data-testid={`avail-set-out-${player.userId}`}
          >
            Out
          </Button>
        </span>
      )}
    </li>
  );
}

/**
 * The one tap that posts the team's call for subs for what is short,
 * expiring at puck drop; once up (posted here or found among the statuses
 * I may edit) it says so, with the way to the subs board.
 */
function SubsCall({ game, teamId, now }: { game: GameAvailability; teamId: string; now: number }) {
  const mine = useMyStatuses(true);
  const post = usePostSubsCall();
  const call = callFor(mine.data, game, teamId, now);
  if (call || post.isSuccess) {
    return (
      <span className="avail-subs avail-subs--posted" data-testid="avail-subs-posted">
        <CheckIcon size={16} /> Call posted ·{' '}
        <Link to="/subs?type=LOOKING_FOR_SUBS" data-testid="avail-subs-board">
          Subs board
        </Link>
      </span>
    );
  }
  return (
    <span className="avail-subs">
      <Button
        size="sm"
        icon={<MegaphoneIcon size={16} />}
        loading={post.isPending}
        disabled={mine.isPending}
        onClick={() =>
          post.mutate(subsCallBody(game, teamId), {
            // Perhaps the team already has a call up (another manager, another game): read what is up.
            onError: (err) => {
              if (err instanceof ApiError && err.status === 409) void mine.refetch();
            },
          })
        }
        data-testid="avail-subs-call"
      >
        Post a call for subs
      </Button>
      {post.isError && (
        <span className="avail-subs__error" role="alert" data-testid="avail-subs-error">
          {errorMessage(post.error)}
        </span>
      )}
    </span>
  );
}
