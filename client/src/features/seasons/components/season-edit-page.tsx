// /seasons/:id/edit — the facility's staff edit a season: name, days (the
// rink's days), active flag and schedule sync. Only changed fields are sent.

import { useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { SeasonForm, seasonPatch } from '../../../components/ui/season-form';
import { PageSpinner } from '../../../components/ui/spinner';
import { useUpdateSeason } from '../api/seasons';
import { useSeasonQuery } from '../../../lib/games';
import { useFacility } from '../../../lib/facilities';

export function SeasonEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const season = useSeasonQuery(id);
  const facility = useFacility(season.data?.facilityId ?? null);
  const update = useUpdateSeason(id);
  const back = `/seasons/${id}`;

  if (season.isPending || (season.data && facility.isPending)) return <PageSpinner label="Loading season" />;
  if (season.isError || facility.isError) {
    return (
      <Card>
        <EmptyState icon={<CalendarIcon size={28} />} title="Could not load this season" action={<ButtonLink to={back}>Back</ButtonLink>}>
          {errorMessage(season.error ?? facility.error)}
        </EmptyState>
      </Card>
    );
  }
  const s = season.data;
  if (!s.viewerCanEdit || !facility.data) {
    return (
      <Card>
        <EmptyState icon={<CalendarIcon size={28} />} title="Only the facility’s staff edit seasons" action={<ButtonLink to={back}>Back to {s.name}</ButtonLink>}>
          Ask the facility’s owner to add you as a manager.
        </EmptyState>
      </Card>
    );
  }

  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow={s.facilityName} title="Edit season" />
      <Card>
        <SeasonForm
          season={s}
          timezone={facility.data.timezone}
          facilityName={facility.data.name}
          submitLabel="Save changes"
          cancel={
            <ButtonLink to={back} variant="ghost">
              Cancel
            </ButtonLink>
          }
          onSubmit={async (values) => {
            const patch = seasonPatch(s, values);
            if (Object.keys(patch).length) await update.mutateAsync(patch);
            navigate(back);
          }}
        />
      </Card>
    </div>
  );
}
