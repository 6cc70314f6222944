//! The command line parses as documented: defaults, flags that need or
//! exclude others, and repeated options.

use super::*;
use clap::CommandFactory;
use std::net::SocketAddr;

#[test]
fn the_command_line_is_well_formed() {
    Cli::command().debug_assert();
}

#[test]
fn fanout_parses_its_options() {
    let cli = Cli::try_parse_from([
        "rinkside-loadtest",
        "fanout",
        "--subscribers",
        "200",
        "--updates",
        "5",
        "--publish-url",
        "http://127.0.0.1:8081",
        "--server-pid",
        "42",
        "--source-ip",
        "127.0.0.2",
        "--json",
    ])
    .unwrap();
    assert!(cli.json);
    let Scenario::Fanout(f) = cli.scenario else {
        panic!("not fanout");
    };
    assert_eq!(f.subscribers, 200);
    assert_eq!(f.server_pid, Some(42));
    assert_eq!(f.net.source_ips.len(), 1);
    assert_eq!(f.publish_via, PublishVia::Rest);
}

#[test]
fn chaos_parses_its_options() {
    let cli = Cli::try_parse_from(["rinkside-loadtest", "chaos", "--nodes", "2", "--seconds", "10", "--keep-schema"])
        .unwrap();
    let Scenario::Chaos(c) = cli.scenario else {
        panic!("not chaos");
    };
    assert_eq!((c.nodes, c.seconds, c.keep_schema, c.db_connections), (2, 10.0, true, 5));
    assert!(c.redis_url.is_none());
}

#[test]
fn market_parses_its_options() {
    let cli = Cli::try_parse_from(["rinkside-loadtest", "market", "--database", "postgres", "--subs", "50"]).unwrap();
    let Scenario::Market(m) = cli.scenario else {
        panic!("not market");
    };
    assert_eq!((m.node.database, m.subs, m.events, m.statuses), (Database::Postgres, 50, 5_000, 10_000));
    assert!(m.url.is_none());
}

#[test]
fn baseline_is_off_unless_asked_and_rounds_need_it() {
    let Scenario::Fanout(f) = Cli::try_parse_from(["rinkside-loadtest", "fanout"]).unwrap().scenario else {
        panic!("not fanout");
    };
    assert!(!f.baseline.baseline);
    let cli = Cli::try_parse_from([
        "rinkside-loadtest",
        "scoreboard",
        "--baseline",
        "--subscribers",
        "2000",
        "--goals",
        "10",
    ])
    .unwrap();
    let Scenario::Scoreboard(s) = cli.scenario else {
        panic!("not scoreboard");
    };
    assert!(s.baseline.baseline);
    assert_eq!((s.baseline.rounds, s.subscribers, s.goals), (2, 2000, 10));
    assert!(
        Cli::try_parse_from(["rinkside-loadtest", "scoreboard", "--baseline", "--processes", "3"]).is_err(),
        "a baseline runs in one process"
    );
    let Scenario::Fanout(f) =
        Cli::try_parse_from(["rinkside-loadtest", "fanout", "--baseline", "--rounds", "3"]).unwrap().scenario
    else {
        panic!("not fanout");
    };
    assert_eq!(f.baseline.rounds, 3);
    assert!(Cli::try_parse_from(["rinkside-loadtest", "fanout", "--rounds", "3"]).is_err());
}

#[test]
fn goal_night_spreads_displays_over_nodes_and_processes() {
    let cli = Cli::try_parse_from([
        "rinkside-loadtest",
        "scoreboard",
        "--subscribe-url",
        "http://127.0.0.1:8081",
        "--subscribe-url",
        "http://127.0.0.1:8082",
        "--server-pid",
        "11",
        "--server-pid",
        "12",
        "--assists",
        "2",
        "--processes",
        "4",
    ])
    .unwrap();
    let Scenario::Scoreboard(s) = cli.scenario else {
        panic!("not scoreboard");
    };
    assert_eq!(s.subscribe_url.len(), 2);
    assert_eq!(s.server_pid, vec![11, 12]);
    assert_eq!((s.assists, s.processes), (2, 4));
    assert!(Cli::try_parse_from(["rinkside-loadtest", "scoreboard", "--assists", "3"]).is_err());
}

#[test]
fn clock_spreads_displays_over_every_url() {
    let Scenario::Clock(c) = Cli::try_parse_from(["rinkside-loadtest", "clock"]).unwrap().scenario else {
        panic!("not clock");
    };
    assert_eq!(c.urls, vec!["http://127.0.0.1:8080".to_owned()]);
    assert_eq!((c.displays, c.pings, c.ping_gap_ms, c.ping_every), (10_000, 3, 200, 15));
    let Scenario::Clock(c) = Cli::try_parse_from([
        "rinkside-loadtest",
        "clock",
        "--url",
        "http://127.0.0.1:8081",
        "--url",
        "http://127.0.0.1:8082",
        "--baseline",
    ])
    .unwrap()
    .scenario
    else {
        panic!("not clock");
    };
    assert_eq!(c.urls.len(), 2);
    assert!(c.baseline);
}

#[test]
fn floor_listens_on_an_ephemeral_loopback_port_by_default() {
    let Scenario::Floor(f) = Cli::try_parse_from(["rinkside-loadtest", "floor"]).unwrap().scenario else {
        panic!("not floor");
    };
    assert_eq!(f.bind, "127.0.0.1:0".parse::<SocketAddr>().unwrap());
    assert_eq!((f.queue, f.snapshot_bytes), (512, 2_048));
    let Scenario::Floor(f) =
        Cli::try_parse_from(["rinkside-loadtest", "floor", "--bind", "127.0.0.1:9000"]).unwrap().scenario
    else {
        panic!("not floor");
    };
    assert_eq!(f.bind.port(), 9000);
    assert!(Cli::try_parse_from(["rinkside-loadtest", "floor", "--bind", "localhost"]).is_err());
}

#[test]
fn sides_times_three_sizes_and_measures_the_heuristic_at_thirty_and_forty() {
    let Scenario::Sides(s) = Cli::try_parse_from(["rinkside-loadtest", "sides"]).unwrap().scenario else {
        panic!("not sides");
    };
    assert_eq!(s.sizes, vec![12, 20, 24]);
    assert_eq!((s.nights, s.goalies, s.gap_skaters, s.bound_skaters), (200, 2, 30, 40));
    let Scenario::Sides(s) =
        Cli::try_parse_from(["rinkside-loadtest", "sides", "--sizes", "8,16", "--gap-nights", "3"]).unwrap().scenario
    else {
        panic!("not sides");
    };
    assert_eq!((s.sizes, s.gap_nights), (vec![8, 16], 3));
}

#[test]
fn anonymous_connect_needs_a_topic() {
    assert!(Cli::try_parse_from(["rinkside-loadtest", "connect", "--anonymous"]).is_err());
    assert!(Cli::try_parse_from(["rinkside-loadtest", "connect", "--anonymous", "--topic", "game:1"]).is_ok());
}
