//! Unit tests for the address rule and the syntactic URL check.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

#[track_caller]
fn assert_verdicts(cases: &[(&str, Option<&str>)]) {
    for (address, expected) in cases {
        assert_eq!(refusal(ip(address)), *expected, "verdict for {address}");
    }
}

#[test]
fn every_refused_ipv4_range_is_refused_from_its_first_to_its_last_address() {
    assert_verdicts(&[
        ("0.0.0.0", Some("unspecified")),
        ("0.0.0.1", Some("this-network")),
        ("0.255.255.255", Some("this-network")),
        ("127.0.0.0", Some("loopback")),
        ("127.0.0.1", Some("loopback")),
        ("127.255.255.255", Some("loopback")),
        ("10.0.0.0", Some("private network")),
        ("10.255.255.255", Some("private network")),
        ("172.16.0.0", Some("private network")),
        ("172.31.255.255", Some("private network")),
        ("192.168.0.0", Some("private network")),
        ("192.168.255.255", Some("private network")),
        ("100.64.0.0", Some("carrier-grade NAT")),
        ("100.127.255.255", Some("carrier-grade NAT")),
        ("169.254.0.0", Some("link-local")),
        ("169.254.169.254", Some("link-local")),
        ("169.254.255.255", Some("link-local")),
        ("192.0.0.0", Some("IETF protocol assignment")),
        ("192.0.0.255", Some("IETF protocol assignment")),
        ("192.0.2.0", Some("documentation")),
        ("192.0.2.255", Some("documentation")),
        ("198.51.100.7", Some("documentation")),
        ("203.0.113.255", Some("documentation")),
        ("198.18.0.0", Some("benchmarking")),
        ("198.19.255.255", Some("benchmarking")),
        ("224.0.0.0", Some("multicast")),
        ("224.0.0.1", Some("multicast")),
        ("239.255.255.255", Some("multicast")),
        ("240.0.0.0", Some("reserved")),
        ("255.255.255.254", Some("reserved")),
        ("255.255.255.255", Some("broadcast")),
    ]);
}

#[test]
fn public_ipv4_addresses_including_the_neighbours_of_refused_ranges_are_allowed() {
    assert_verdicts(&[
        ("1.0.0.0", None),
        ("8.8.8.8", None),
        ("9.255.255.255", None),
        ("11.0.0.0", None),
        ("100.63.255.255", None),
        ("100.128.0.0", None),
        ("126.255.255.255", None),
        ("128.0.0.0", None),
        ("169.253.255.255", None),
        ("169.255.0.0", None),
        ("172.15.255.255", None),
        ("172.32.0.0", None),
        ("192.0.1.0", None),
        ("192.0.3.0", None),
        ("192.167.255.255", None),
        ("192.169.0.0", None),
        ("198.17.255.255", None),
        ("198.20.0.0", None),
        ("198.51.99.255", None),
        ("198.51.101.0", None),
        ("203.0.112.255", None),
        ("203.0.114.0", None),
        ("223.255.255.255", None),
    ]);
}

#[test]
fn special_ipv6_ranges_are_refused() {
    assert_verdicts(&[
        ("::", Some("unspecified")),
        ("::1", Some("loopback")),
        ("fc00::", Some("private network")),
        ("fc00::1", Some("private network")),
        ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Some("private network")),
        ("fe80::", Some("link-local")),
        ("fe80::1", Some("link-local")),
        ("febf:ffff::", Some("link-local")),
        ("fec0::1", Some("site-local")),
        ("feff::1", Some("site-local")),
        ("ff00::", Some("multicast")),
        ("ff02::1", Some("multicast")),
        ("2001:db8::", Some("documentation")),
        ("2001:db8:ffff:ffff::1", Some("documentation")),
        ("3fff::1", Some("documentation")),
        ("3fff:fff::1", Some("documentation")),
        ("2001::", Some("Teredo")),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", Some("Teredo")),
        ("2001:2::1", Some("IETF protocol assignment")),
        ("2001:1ff::1", Some("IETF protocol assignment")),
        ("64:ff9b:1::1", Some("local-use NAT64")),
        ("100::1", Some("reserved")),
        ("4000::1", Some("reserved")),
        ("::ffff:0:7f00:1", Some("reserved")),
    ]);
}

#[test]
fn global_unicast_ipv6_addresses_are_allowed() {
    assert_verdicts(&[
        ("2000::1", None),
        ("2001:200::1", None),
        ("2001:4860:4860::8888", None),
        ("2001:db7:ffff::1", None),
        ("2001:db9::1", None),
        ("2606:4700:4700::1111", None),
        ("2a00:1450:4001::200e", None),
        ("3ffe::1", None),
        ("3fff:1000::1", None),
    ]);
}

#[test]
fn ipv6_forms_of_an_ipv4_address_are_judged_by_the_ipv4_address_inside() {
    assert_verdicts(&[
        ("::ffff:127.0.0.1", Some("IPv4-mapped loopback")),
        ("::ffff:7f00:1", Some("IPv4-mapped loopback")),
        ("0:0:0:0:0:ffff:127.0.0.1", Some("IPv4-mapped loopback")),
        ("::ffff:10.1.2.3", Some("IPv4-mapped private network")),
        ("::ffff:169.254.169.254", Some("IPv4-mapped link-local")),
        ("::ffff:0.0.0.0", Some("IPv4-mapped unspecified")),
        ("::ffff:8.8.8.8", None),
        ("::127.0.0.1", Some("IPv4-compatible loopback")),
        ("::192.168.0.1", Some("IPv4-compatible private network")),
        ("::8.8.8.8", None),
        ("64:ff9b::7f00:1", Some("NAT64 loopback")),
        ("64:ff9b::100.64.0.1", Some("NAT64 carrier-grade NAT")),
        ("64:ff9b::8.8.8.8", None),
        ("2002:7f00:1::", Some("6to4 loopback")),
        ("2002:a9fe:a9fe::1", Some("6to4 link-local")),
        ("2002:e000:1::", Some("6to4 multicast")),
        ("2002:808:808::1", None),
    ]);
}

#[test]
fn ipv4_literals_in_any_spelling_are_read_as_a_resolver_would_and_refused() {
    for url in [
        "http://127.0.0.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f.0.0.1/",
        "http://0x7f000001/",
        "http://0x7f.1/",
        "http://127.1/",
        "http://127.000.000.001/",
        "HTTP://127.0.0.1:8080/x?y",
    ] {
        let refused = check_url(url, false).unwrap_err();
        assert_eq!(refused, UrlRefusal::Address { host: "127.0.0.1".into(), reason: "loopback" }, "{url}");
    }
}

#[test]
fn ipv6_literals_are_refused_with_their_brackets_in_the_message() {
    let refused = check_url("http://[::ffff:127.0.0.1]:81/", false).unwrap_err();
    assert_eq!(refused.to_string(), "`[::ffff:7f00:1]` is an IPv4-mapped loopback address");
    assert_eq!(check_url("https://[fe80::1]/", false).unwrap_err().to_string(), "`[fe80::1]` is a link-local address");
}

#[test]
fn localhost_names_are_refused_as_loopback_without_asking_a_resolver() {
    for (url, host) in [
        ("http://localhost/", "localhost"),
        ("http://LOCALHOST:8080/", "localhost"),
        ("http://localhost.:8080/", "localhost."),
        ("http://api.localhost/", "api.localhost"),
    ] {
        assert_eq!(
            check_url(url, false).unwrap_err(),
            UrlRefusal::Address { host: host.into(), reason: "loopback" },
            "{url}"
        );
    }
    assert!(check_url("http://localhost.example.com/", false).is_ok());
    assert!(check_url("http://notlocalhost/", false).is_ok());
}

#[test]
fn only_http_and_https_urls_can_be_synced() {
    for (url, scheme) in [
        ("file:///etc/passwd", "file"),
        ("ftp://example.com/", "ftp"),
        ("gopher://127.0.0.1/", "gopher"),
        ("javascript:alert(1)", "javascript"),
        ("data:text/plain,hi", "data"),
        ("dict://127.0.0.1:11211/", "dict"),
        ("ws://example.com/", "ws"),
    ] {
        assert_eq!(check_url(url, true).unwrap_err(), UrlRefusal::Scheme(scheme.into()), "{url}");
    }
    assert_eq!(UrlRefusal::Scheme("ftp".into()).to_string(), "only http and https URLs can be synced, not `ftp`");
}

#[test]
fn urls_with_a_user_name_or_password_are_refused_even_when_private_networks_are_allowed() {
    for url in ["http://user:pass@example.com/", "http://user@example.com/", "https://:secret@example.com/"] {
        assert_eq!(check_url(url, true).unwrap_err(), UrlRefusal::Credentials, "{url}");
    }
}

#[test]
fn text_that_is_not_a_url_is_unparsable() {
    for text in ["", "example.com/schedule", "http://", "http://exa mple.com/", "http://[::1/", "http://256.0.0.1/"] {
        assert_eq!(check_url(text, false).unwrap_err(), UrlRefusal::Unparsable, "{text:?}");
    }
}

#[test]
fn allowing_private_networks_lifts_the_address_rule_only() {
    for url in ["http://127.0.0.1:8080/", "http://localhost/", "http://[::1]/", "http://10.0.0.1/"] {
        assert!(check_url(url, true).is_ok(), "{url}");
    }
}

#[test]
fn public_http_and_https_urls_pass_and_come_back_parsed() {
    let url = check_url("https://Example.COM:8443/api/v1/events?season=3#x", false).unwrap();
    assert_eq!(url.host_str(), Some("example.com"));
    assert_eq!(url.port(), Some(8443));
    assert!(check_url("http://8.8.8.8/", false).is_ok());
    assert!(check_url("http://[2606:4700:4700::1111]/", false).is_ok());
}

fn mapped(v4: Ipv4Addr) -> IpAddr {
    v4.to_ipv6_mapped().into()
}

fn compatible(v4: Ipv4Addr) -> IpAddr {
    Ipv6Addr::from(u128::from(u32::from(v4))).into()
}

fn nat64(v4: Ipv4Addr) -> IpAddr {
    Ipv6Addr::from((0x0064_ff9b_u128 << 96) | u128::from(u32::from(v4))).into()
}

fn six_to_four(v4: Ipv4Addr) -> IpAddr {
    Ipv6Addr::from((0x2002_u128 << 112) | (u128::from(u32::from(v4)) << 80) | 1).into()
}

/// Addresses drawn mostly from the refused ranges, so the property is not decided by
/// almost-always-public random addresses.
fn interesting_v4() -> impl Strategy<Value = Ipv4Addr> {
    prop_oneof![
        any::<u32>().prop_map(Ipv4Addr::from),
        (prop::sample::select(vec![0u8, 10, 100, 127, 169, 172, 192, 198, 203, 224, 240, 255]), any::<[u8; 3]>())
            .prop_map(|(a, [b, c, d])| Ipv4Addr::new(a, b, c, d)),
        (prop::sample::select(vec![(192u8, 0u8, 0u8), (192, 0, 2), (198, 51, 100), (203, 0, 113)]), any::<u8>())
            .prop_map(|((a, b, c), d)| Ipv4Addr::new(a, b, c, d)),
    ]
}

proptest! {
    #[test]
    fn every_ipv6_form_of_an_ipv4_address_gets_the_verdict_of_the_ipv4_address(v4 in interesting_v4()) {
        let verdict = refusal(v4.into());
        for (form, address) in
            [("mapped", mapped(v4)), ("compatible", compatible(v4)), ("NAT64", nat64(v4)), ("6to4", six_to_four(v4))]
        {
            prop_assert_eq!(refusal(address).is_some(), verdict.is_some(), "{} form {} of {}", form, address, v4);
        }
    }

    #[test]
    fn a_refused_embedded_address_names_the_embedding_and_the_ipv4_reason(v4 in interesting_v4()) {
        // `::` and `::1` are IPv6's own unspecified and loopback, not IPv4-compatible forms.
        prop_assume!(u32::from(v4) > 1);
        if let Some(reason) = refusal(v4.into()) {
            prop_assert_eq!(refusal(mapped(v4)).map(String::from), Some(format!("IPv4-mapped {reason}")));
            prop_assert_eq!(refusal(compatible(v4)).map(String::from), Some(format!("IPv4-compatible {reason}")));
            prop_assert_eq!(refusal(nat64(v4)).map(String::from), Some(format!("NAT64 {reason}")));
            prop_assert_eq!(refusal(six_to_four(v4)).map(String::from), Some(format!("6to4 {reason}")));
        }
    }
}
