import type { Facility } from '../../../lib/api-types';
import { RinkIcon } from '../../../components/ui/icons';
import { OrgSearchPage } from '../../../components/ui/org-search-page';
import { FacilityRow } from './facility-row';

export function FacilitiesPage() {
  return (
    <OrgSearchPage<Facility>
      kind="facilities"
      eyebrow="Ice time"
      title="Facilities"
      subtitle="Rinks and arenas. Follow yours to hear about seasons, skates and games."
      create={{ label: 'New facility', testId: 'new-facility' }}
      search={{ label: 'Search facilities', placeholder: 'Search rinks by name', testId: 'facility-search' }}
      empty={{
        icon: <RinkIcon size={28} />,
        title: (q) => (q ? `No rink matches “${q}”` : 'No facilities yet'),
        text: (q) => (q ? 'Check the spelling, or add it if it is missing.' : 'Add your home rink so teams and seasons can live there.'),
        actionLabel: 'Add a facility',
      }}
      renderRow={(f) => <FacilityRow facility={f} />}
    />
  );
}
