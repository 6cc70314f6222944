//! Which spelling of a team's name a schedule keeps when its source writes
//! the name several ways (docs/sync.md › Three adapters, one result).
//!
//! Feeds typed by hand shout some titles ("ICE OWLS vs Blue Liners") and
//! not others. Every spelling that normalises alike (`normalise_name`: case,
//! accents, punctuation) is one team, and the one we show is the best seen
//! anywhere in the schedule, in any team or game: mixed case first
//! ("Ice Owls"), then all lower case, then all capitals; among equals the
//! most frequent, then the first seen. A name only ever shouted stays as
//! written: we never invent a spelling ("USA" may be meant).
//!
//! Pure, and it changes no id: ids are built from normalised names.

use std::collections::HashMap;

use super::schedule::{Game, Team, normalise_name};

/// How a spelling is written, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Case {
    /// Capitals and no lower-case letter: "ICE OWLS".
    Shouted,
    /// No capital: "ice owls".
    Lower,
    /// Both, or no letters at all (nothing to prefer there): "Ice Owls".
    Mixed,
}

fn case_of(name: &str) -> Case {
    let upper = name.chars().any(char::is_uppercase);
    let lower = name.chars().any(char::is_lowercase);
    match (upper, lower) {
        (true, false) => Case::Shouted,
        (false, true) => Case::Lower,
        _ => Case::Mixed,
    }
}

/// One spelling's standing: how it is written, how often and how early it
/// was seen.
struct Seen {
    case: Case,
    count: usize,
    first: usize,
}

/// The best of the spellings given (in the order seen), by the rules above.
pub fn best<'a>(spellings: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut seen: HashMap<&'a str, Seen> = HashMap::new();
    for (i, name) in spellings.into_iter().enumerate() {
        seen.entry(name).or_insert(Seen { case: case_of(name), count: 0, first: i }).count += 1;
    }
    seen.into_iter()
        .max_by(|(_, a), (_, b)| {
            (a.case, a.count, std::cmp::Reverse(a.first)).cmp(&(b.case, b.count, std::cmp::Reverse(b.first)))
        })
        .map(|(name, _)| name)
}

/// Gives every team and every game's sides the best spelling of its name
/// seen anywhere among them.
pub fn respell(teams: &mut [Team], games: &mut [Game]) {
    let mut by_key: HashMap<String, Vec<&str>> = HashMap::new();
    let names =
        teams.iter().map(|t| t.name.as_str()).chain(games.iter().flat_map(|g| [g.home.as_str(), g.away.as_str()]));
    for name in names {
        by_key.entry(normalise_name(name)).or_default().push(name);
    }
    let chosen: HashMap<String, String> = by_key
        .into_iter()
        .filter(|(_, spellings)| spellings.iter().any(|s| *s != spellings[0]))
        .filter_map(|(key, spellings)| Some((key, best(spellings)?.to_string())))
        .collect();
    if chosen.is_empty() {
        return;
    }
    let respell = |name: &mut String| {
        if let Some(better) = chosen.get(&normalise_name(name)) {
            name.clone_from(better);
        }
    };
    teams.iter_mut().for_each(|t| respell(&mut t.name));
    for game in games.iter_mut() {
        respell(&mut game.home);
        respell(&mut game.away);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn mixed_case_beats_lower_case_beats_capitals_whatever_the_counts() {
        assert_eq!(best(["ICE OWLS", "ICE OWLS", "ICE OWLS", "Ice Owls"]), Some("Ice Owls"));
        assert_eq!(best(["ICE OWLS", "ice owls"]), Some("ice owls"));
        assert_eq!(best(["ice owls", "ICE OWLS", "Ice owls"]), Some("Ice owls"));
        assert_eq!(best(["ST. MARY'S", "St Marys"]), Some("St Marys"));
    }

    #[test]
    fn among_equals_the_most_frequent_then_the_first_seen_wins() {
        assert_eq!(best(["Ice owls", "Ice Owls", "Ice Owls"]), Some("Ice Owls"));
        assert_eq!(best(["Ice owls", "Ice Owls"]), Some("Ice owls"));
        assert_eq!(best(["USA", "USA"]), Some("USA"), "only ever shouted: kept as written");
        assert_eq!(best(Vec::<&str>::new()), None);
    }

    fn game(home: &str, away: &str) -> Game {
        let start = chrono::NaiveDate::from_ymd_opt(2026, 9, 8).unwrap().and_hms_opt(20, 30, 0).unwrap();
        Game {
            external_id: format!("{home}|{away}"),
            start_local: start,
            end_local: None,
            start_utc_ms: 0,
            end_utc_ms: None,
            rink: None,
            division: None,
            home: home.into(),
            away: away.into(),
            home_team_id: normalise_name(home),
            away_team_id: normalise_name(away),
            home_goals: None,
            away_goals: None,
            game_type: None,
            cancelled: false,
        }
    }

    #[test]
    fn a_shouted_name_takes_the_nicer_spelling_seen_in_another_game_or_division() {
        let mut teams = vec![
            Team { external_id: "ice owls|c1".into(), name: "ICE OWLS".into(), division: Some("C1".into()) },
            Team { external_id: "ice owls|c2".into(), name: "Ice Owls".into(), division: Some("C2".into()) },
        ];
        let mut games =
            vec![game("ICE OWLS", "BLUE LINERS"), game("Top Shelf", "Ice Owls"), game("ICE OWLS", "Top Shelf")];
        respell(&mut teams, &mut games);
        assert!(teams.iter().all(|t| t.name == "Ice Owls"), "{teams:?}");
        let sides: Vec<(&str, &str)> = games.iter().map(|g| (g.home.as_str(), g.away.as_str())).collect();
        assert_eq!(sides, [("Ice Owls", "BLUE LINERS"), ("Top Shelf", "Ice Owls"), ("Ice Owls", "Top Shelf")]);
        assert_eq!(games[0].home_team_id, "ice owls", "ids do not move");
    }

    proptest! {
        /// Respelling never changes what a name normalises to, so no team
        /// or game changes identity, and the best is one of those given.
        #[test]
        fn respelling_keeps_every_name_normalising_alike(names in prop::collection::vec("(?i:ice owls|st\\. mary's|bleu)", 1..8)) {
            let mut games: Vec<Game> = names.windows(2).map(|w| game(&w[0], &w[1])).collect();
            let before: Vec<String> = games.iter().flat_map(|g| [normalise_name(&g.home), normalise_name(&g.away)]).collect();
            respell(&mut [], &mut games);
            let after: Vec<String> = games.iter().flat_map(|g| [normalise_name(&g.home), normalise_name(&g.away)]).collect();
            prop_assert_eq!(before, after);
            for g in &games {
                prop_assert!(names.contains(&g.home) && names.contains(&g.away));
            }
        }
    }
}
