import type { Facility } from '../../../lib/api-types';
import { OrgRow } from '../../../components/ui/org-row';

/** A rink in a list: as any org, plus its time zone. */
export function FacilityRow({ facility }: { facility: Facility }) {
  return <OrgRow kind="facilities" org={facility} imageSrc={facility.imageUrl} testId={`facility-row-${facility.id}`} detail={facility.timezone.replace(/_/g, ' ')} />;
}
