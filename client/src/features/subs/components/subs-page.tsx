// /subs — "Subs & teams": the sub market. My matches (live) and my
// statuses beside the board of everyone's. On a phone, matches come first:
// they are what someone opens this page for at 8 pm.

import { PageHeader } from '../../../components/ui/page-header';
import { Board } from './board';
import { MyMatches } from './my-matches';
import { MyStatuses } from './my-statuses';
import '../subs.css';

export function SubsPage() {
  return (
    <div className="stack-lg" data-testid="subs-page">
      <PageHeader
        eyebrow="Sub market"
        title="Subs & teams"
        subtitle="Free to play tonight, short a goalie, or looking for a regular spot? Say so, and Rinkside finds the match at your level."
      />
      <div className="subs-layout">
        <div className="subs-layout__matches">
          <MyMatches />
        </div>
        <div className="subs-layout__mine">
          <MyStatuses />
        </div>
        <div className="subs-layout__board">
          <Board />
        </div>
      </div>
    </div>
  );
}
