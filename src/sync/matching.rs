//! Which of our teams an external team is: pure rules, no I/O
//! (docs/sync.md › What a sync changes).
//!
//! Exact name first, then the normalised name (case, spacing, punctuation,
//! accents); when several of our teams share it, the one whose roster in
//! the season sits in a division mapping named like the external division.
//! A match made or undone by hand is never overridden.

use super::schedule::normalise_name;

/// Most suggestions offered for an unmatched external team.
pub const MAX_SUGGESTIONS: usize = 3;

/// One of our teams that an external team may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub team_id: String,
    pub name: String,
    /// The facility division names of the team's rosters in the season.
    pub divisions: Vec<String>,
}

/// An external team as the season holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    pub name: String,
    pub division: Option<String>,
    pub team_id: Option<String>,
    /// Staff matched or unmatched it: the sync keeps their word.
    pub by_hand: bool,
}

/// What the rules make of one external team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Staff decided; leave it.
    ByHand,
    Matched(String),
    /// No single team fits: these might (best first).
    Unmatched(Vec<String>),
}

/// The verdict for one external team among the candidates. Teams that
/// staff matched by hand to another external team are left out by the
/// caller (`taken`).
pub fn decide(external: &External, candidates: &[Candidate], taken: &[String]) -> Verdict {
    if external.by_hand {
        return Verdict::ByHand;
    }
    let open: Vec<&Candidate> = candidates.iter().filter(|c| !taken.contains(&c.team_id)).collect();
    let exact: Vec<&Candidate> = open.iter().copied().filter(|c| c.name == external.name).collect();
    if let Some(verdict) = narrow(&exact, external) {
        return verdict;
    }
    let key = normalise_name(&external.name);
    let same: Vec<&Candidate> = open.iter().copied().filter(|c| normalise_name(&c.name) == key).collect();
    if let Some(verdict) = narrow(&same, external) {
        return verdict;
    }
    Verdict::Unmatched(suggestions(&key, &open))
}

/// Our teams an external team may be, for staff matching by hand: the
/// rules' suggestions, or the team they would match.
pub fn suggest(name: &str, division: Option<&str>, candidates: &[Candidate], taken: &[String]) -> Vec<String> {
    let external = External { name: name.into(), division: division.map(Into::into), team_id: None, by_hand: false };
    match decide(&external, candidates, taken) {
        Verdict::Matched(team_id) => vec![team_id],
        Verdict::Unmatched(suggestions) => suggestions,
        Verdict::ByHand => Vec::new(),
    }
}

/// One of several same-named teams, told apart by division; `None` when
/// there are none to choose from.
fn narrow(found: &[&Candidate], external: &External) -> Option<Verdict> {
    match found {
        [] => None,
        [one] => Some(Verdict::Matched(one.team_id.clone())),
        many => {
            let division = external.division.as_deref().map(normalise_name);
            let in_division: Vec<&&Candidate> = many
                .iter()
                .filter(|c| division.as_ref().is_some_and(|d| c.divisions.iter().any(|cd| &normalise_name(cd) == d)))
                .collect();
            Some(match in_division.as_slice() {
                [one] => Verdict::Matched(one.team_id.clone()),
                _ => Verdict::Unmatched(many.iter().take(MAX_SUGGESTIONS).map(|c| c.team_id.clone()).collect()),
            })
        }
    }
}

/// Teams whose normalised name contains the external one's or is contained
/// in it ("The Polar Bears" for "Polar Bears"), then those sharing a word of
/// three letters or more.
fn suggestions(key: &str, open: &[&Candidate]) -> Vec<String> {
    if key.is_empty() {
        return Vec::new();
    }
    let words: Vec<&str> = key.split(' ').filter(|w| w.chars().count() >= 3).collect();
    let mut scored: Vec<(u8, &Candidate)> = open
        .iter()
        .filter_map(|c| {
            let name = normalise_name(&c.name);
            if name.is_empty() {
                None
            } else if name.contains(key) || key.contains(&name) {
                Some((0, *c))
            } else if name.split(' ').any(|w| words.contains(&w)) {
                Some((1, *c))
            } else {
                None
            }
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
    scored.into_iter().take(MAX_SUGGESTIONS).map(|(_, c)| c.team_id.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team(id: &str, name: &str, divisions: &[&str]) -> Candidate {
        Candidate {
            team_id: id.into(),
            name: name.into(),
            divisions: divisions.iter().map(|d| d.to_string()).collect(),
        }
    }

    fn ext(name: &str, division: Option<&str>) -> External {
        External { name: name.into(), division: division.map(Into::into), team_id: None, by_hand: false }
    }

    #[test]
    fn an_exact_name_matches() {
        let teams = [team("t1", "Blue Liners", &[]), team("t2", "Top Shelf", &[])];
        assert_eq!(decide(&ext("Top Shelf", None), &teams, &[]), Verdict::Matched("t2".into()));
    }

    #[test]
    fn case_spacing_punctuation_and_accents_do_not_matter() {
        let teams = [team("t1", "Les Canadiens de Montréal", &[]), team("t2", "Sin-Bin Saints!", &[])];
        assert_eq!(decide(&ext("les  canadiens de MONTREAL", None), &teams, &[]), Verdict::Matched("t1".into()));
        assert_eq!(decide(&ext("Sin Bin Saints", None), &teams, &[]), Verdict::Matched("t2".into()));
    }

    #[test]
    fn an_exact_name_wins_over_a_normalised_one() {
        let teams = [team("t1", "Top shelf", &[]), team("t2", "Top Shelf", &[])];
        assert_eq!(decide(&ext("Top Shelf", None), &teams, &[]), Verdict::Matched("t2".into()));
    }

    #[test]
    fn same_named_teams_are_told_apart_by_the_division_mapping() {
        let teams = [team("c", "Wolverines", &["Adult C1"]), team("d", "Wolverines", &["Adult D"])];
        assert_eq!(decide(&ext("Wolverines", Some("adult d")), &teams, &[]), Verdict::Matched("d".into()));
        assert_eq!(
            decide(&ext("Wolverines", Some("Adult B")), &teams, &[]),
            Verdict::Unmatched(vec!["c".into(), "d".into()])
        );
        assert_eq!(decide(&ext("Wolverines", None), &teams, &[]), Verdict::Unmatched(vec!["c".into(), "d".into()]));
    }

    #[test]
    fn a_near_name_is_suggested_not_matched() {
        let teams = [team("p", "The Polar Bears", &[]), team("w", "Wolverines HC", &[]), team("x", "Ice Owls", &[])];
        assert_eq!(decide(&ext("Polar Bears", None), &teams, &[]), Verdict::Unmatched(vec!["p".into()]));
        assert_eq!(decide(&ext("Wolverines", None), &teams, &[]), Verdict::Unmatched(vec!["w".into()]));
        assert_eq!(decide(&ext("Backcheckers", None), &teams, &[]), Verdict::Unmatched(vec![]));
    }

    #[test]
    fn a_hand_made_decision_is_kept() {
        let teams = [team("t1", "Blue Liners", &[])];
        let mut blue = ext("Blue Liners", None);
        blue.by_hand = true;
        assert_eq!(decide(&blue, &teams, &[]), Verdict::ByHand);
    }

    #[test]
    fn a_team_matched_by_hand_elsewhere_is_not_matched_again() {
        let teams = [team("t1", "Blue Liners", &[])];
        assert_eq!(decide(&ext("Blue Liners", None), &teams, &["t1".into()]), Verdict::Unmatched(vec![]));
    }
}
