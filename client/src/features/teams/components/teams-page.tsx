import type { Team } from '../../../lib/api-types';
import { TeamIcon } from '../../../components/ui/icons';
import { OrgSearchPage } from '../../../components/ui/org-search-page';
import { TeamRow } from './team-row';

export function TeamsPage() {
  return (
    <OrgSearchPage<Team>
      kind="teams"
      eyebrow="Clubs"
      title="Teams"
      subtitle="From beer league to travel: follow teams, then join their rosters."
      create={{ label: 'New team', testId: 'new-team' }}
      search={{ label: 'Search teams', placeholder: 'Search teams by name', testId: 'team-search' }}
      empty={{
        icon: <TeamIcon size={28} />,
        title: (q) => (q ? `No team matches “${q}”` : 'No teams yet'),
        text: (q) => (q ? 'Try another name, or start it yourself.' : 'Start yours and invite the group chat.'),
        actionLabel: 'Start a team',
      }}
      renderRow={(t) => <TeamRow team={t} />}
    />
  );
}
