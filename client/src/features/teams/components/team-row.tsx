import type { Team } from '../../../lib/api-types';
import { OrgRow } from '../../../components/ui/org-row';

export function TeamRow({ team }: { team: Team }) {
  return <OrgRow kind="teams" org={team} imageSrc={team.logoUrl} testId={`team-row-${team.id}`} />;
}
