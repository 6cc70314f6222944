// /facilities/:id/seasons/new — the facility's staff start a season. Days are
// the rink's days (its time zone), whatever zone the browser is in.

import { useNavigate, useParams } from 'react-router';
import { useCreateSeason } from '../api/facilities';
import { useFacility } from '../../../lib/facilities';
import { errorMessage } from '../../../lib/api';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { SeasonForm } from '../../../components/ui/season-form';
import { PageSpinner } from '../../../components/ui/spinner';

export function NewSeasonPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const facility = useFacility(id, { fresh: true });
  const create = useCreateSeason(id);
  const back = `/facilities/${id}`;

  if (facility.isPending) return <PageSpinner label="Loading facility" />;
  if (facility.isError) {
    return (
      <Card>
        <EmptyState icon={<CalendarIcon size={28} />} title="Could not load this facility" action={<ButtonLink to="/facilities">All facilities</ButtonLink>}>
          {errorMessage(facility.error)}
        </EmptyState>
      </Card>
    );
  }
  const f = facility.data;
  if (!f.viewerRole) {
    return (
      <Card>
        <EmptyState icon={<CalendarIcon size={28} />} title="Only the facility’s staff start seasons" action={<ButtonLink to={back}>Back to {f.name}</ButtonLink>}>
          Ask its owner to add you as a manager.
        </EmptyState>
      </Card>
    );
  }

  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow={f.name} title="New season" subtitle="Teams put rosters in a season; games and standings belong to it." />
      <Card>
        <SeasonForm
          timezone={f.timezone}
          facilityName={f.name}
          submitLabel="Create season"
          cancel={
            <ButtonLink to={back} variant="ghost">
              Cancel
            </ButtonLink>
          }
          onSubmit={async (values) => {
            const season = await create.mutateAsync(values);
            navigate(`/seasons/${season.id}`, { replace: true });
          }}
        />
      </Card>
    </div>
  );
}
