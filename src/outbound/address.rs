//! Which addresses and URLs the season sync refuses to fetch from.
//!
//! A season's `syncUrl` is user input that makes the server open connections, so every address it
//! leads to is judged here before anything connects (see `docs/sync.md` § "The fetcher"). This
//! module is pure: no I/O, no resolution. `fetch` applies these rules to the addresses a name
//! resolves to, and to IP literals, which never reach a resolver.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

/// Why an address is refused, e.g. "loopback", "private network", "IPv4-mapped loopback";
/// `None` means the address is public and may be fetched from.
///
/// The words fit the sentence "`<host>` is a(n) <reason> address".
pub fn refusal(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_range(v4).map(V4Range::plain),
        IpAddr::V6(v6) => v6_refusal(v6),
    }
}

/// Why a sync URL is refused before anything connects.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum UrlRefusal {
    #[error("this is not a valid URL")]
    Unparsable,
    #[error("only http and https URLs can be synced, not `{0}`")]
    Scheme(String),
    #[error("the URL must not contain a user name or password")]
    Credentials,
    #[error("the URL has no host")]
    NoHost,
    #[error("`{host}` is {} {reason} address", article(.reason))]
    Address { host: String, reason: &'static str },
}

/// Syntactic check of a sync URL: scheme, credentials, host present, and — when the host is an IP
/// literal — the address rule. Host names are judged later, on the addresses they resolve to.
///
/// IPv4 written as decimal (`2130706433`), octal (`0177.0.0.1`), hex (`0x7f.1`) or short (`127.1`)
/// needs no special care: the WHATWG parser in `url` reads them the way a resolver would and hands
/// back `Host::Ipv4(127.0.0.1)`.
pub fn check_url(s: &str, allow_private: bool) -> Result<Url, UrlRefusal> {
    check_url_with(s, &|ip| if allow_private { None } else { refusal(ip) })
}

/// `check_url` with the address rule passed in, so the fetcher's test-only rules (which treat a
/// few loopback addresses as public) apply to literals exactly as they do to resolved names.
pub(super) fn check_url_with(s: &str, judge: &dyn Fn(IpAddr) -> Option<&'static str>) -> Result<Url, UrlRefusal> {
    let url = Url::parse(s).map_err(|_| UrlRefusal::Unparsable)?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(UrlRefusal::Scheme(url.scheme().to_owned()));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(UrlRefusal::Credentials);
    }
    let refused = |reason| UrlRefusal::Address { host: url.host_str().unwrap_or_default().to_owned(), reason };
    match url.host() {
        None => Err(UrlRefusal::NoHost),
        Some(Host::Ipv4(v4)) => judge(v4.into()).map_or(Ok(()), |reason| Err(refused(reason))),
        Some(Host::Ipv6(v6)) => judge(v6.into()).map_or(Ok(()), |reason| Err(refused(reason))),
        // RFC 6761 reserves `localhost` and `*.localhost` for loopback, and resolvers differ on
        // spellings like `localhost.`; judging them as the loopback address they must mean keeps
        // the verdict independent of /etc/hosts.
        Some(Host::Domain(name)) if is_localhost_name(name) => {
            judge(Ipv4Addr::LOCALHOST.into()).map_or(Ok(()), |reason| Err(refused(reason)))
        }
        Some(Host::Domain(_)) => Ok(()),
    }?;
    Ok(url)
}

fn is_localhost_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

fn article(reason: &str) -> &'static str {
    match reason.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// How an IPv6 address carries an IPv4 one; each is judged by the IPv4 address inside, because
/// a host or gateway on the way turns it back into a connection to that IPv4 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Embedding {
    /// `::ffff:a.b.c.d` (RFC 4291): dual-stack sockets connect to a.b.c.d.
    Mapped,
    /// `::a.b.c.d` (RFC 4291, deprecated): some stacks still route it as a.b.c.d.
    Compatible,
    /// `64:ff9b::a.b.c.d` (RFC 6052): a NAT64 gateway forwards it to a.b.c.d.
    Nat64,
    /// `2002:aabb:ccdd::/48` (RFC 3056): a 6to4 relay forwards it to a.b.c.d.
    SixToFour,
}

/// Generates the IPv4 ranges with their reason words, and the `&'static str` reason for each
/// range seen through each embedding (`concat!` keeps them static without allocating or leaking).
macro_rules! v4_ranges {
    ($($range:ident => $words:literal,)*) => {
        /// The refused IPv4 ranges.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum V4Range { $($range,)* }

        impl V4Range {
            fn plain(self) -> &'static str {
                match self { $(Self::$range => $words,)* }
            }

            fn embedded(self, how: Embedding) -> &'static str {
                match (how, self) {
                    $(
                        (Embedding::Mapped, Self::$range) => concat!("IPv4-mapped ", $words),
                        (Embedding::Compatible, Self::$range) => concat!("IPv4-compatible ", $words),
                        (Embedding::Nat64, Self::$range) => concat!("NAT64 ", $words),
                        (Embedding::SixToFour, Self::$range) => concat!("6to4 ", $words),
                    )*
                }
            }
        }
    };
}

v4_ranges! {
    Unspecified => "unspecified",
    ThisNetwork => "this-network",
    Loopback => "loopback",
    Private => "private network",
    CarrierGradeNat => "carrier-grade NAT",
    LinkLocal => "link-local",
    IetfProtocol => "IETF protocol assignment",
    Documentation => "documentation",
    Benchmarking => "benchmarking",
    Multicast => "multicast",
    Broadcast => "broadcast",
    Reserved => "reserved",
}

/// The refused range an IPv4 address falls in (IANA special-purpose registry, RFC 6890), or `None`
/// for a public address. Order matters only where ranges nest (0.0.0.0 inside 0/8, broadcast
/// inside 240/4), and the more specific range comes first.
fn v4_range(ip: Ipv4Addr) -> Option<V4Range> {
    let [a, b, c, _] = ip.octets();
    let range = match (a, b, c) {
        _ if ip.is_unspecified() => V4Range::Unspecified,
        _ if ip.is_broadcast() => V4Range::Broadcast,
        (0, _, _) => V4Range::ThisNetwork,
        (127, _, _) => V4Range::Loopback,
        (10, _, _) => V4Range::Private,
        (172, 16..=31, _) => V4Range::Private,
        (192, 168, _) => V4Range::Private,
        (100, 64..=127, _) => V4Range::CarrierGradeNat,
        (169, 254, _) => V4Range::LinkLocal,
        (192, 0, 0) => V4Range::IetfProtocol,
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => V4Range::Documentation,
        (198, 18..=19, _) => V4Range::Benchmarking,
        (224..=239, _, _) => V4Range::Multicast,
        (240..=255, _, _) => V4Range::Reserved,
        _ => return None,
    };
    Some(range)
}

fn v6_refusal(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    let o = ip.octets();
    let embedded_tail = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    let through = |v4: Ipv4Addr, how| v4_range(v4).map(|range| range.embedded(how));
    match s {
        _ if ip.is_unspecified() => Some("unspecified"),
        _ if ip.is_loopback() => Some("loopback"),
        [0, 0, 0, 0, 0, 0xffff, _, _] => through(embedded_tail, Embedding::Mapped),
        [0, 0, 0, 0, 0, 0, _, _] => through(embedded_tail, Embedding::Compatible),
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => through(embedded_tail, Embedding::Nat64),
        // RFC 8215 local-use NAT64 prefix: translates into whatever network the operator chose.
        [0x64, 0xff9b, 1, ..] => Some("local-use NAT64"),
        [0x2002, ..] => through(Ipv4Addr::new(o[2], o[3], o[4], o[5]), Embedding::SixToFour),
        // Teredo hides the real IPv4 endpoint (obfuscated, behind a relay), so it cannot be judged.
        [0x2001, 0, ..] => Some("Teredo"),
        [0x2001, 0x0db8, ..] => Some("documentation"),
        [0x3fff, second, ..] if second & 0xf000 == 0 => Some("documentation"), // 3fff::/20, RFC 9637
        // The rest of 2001::/23 (benchmarking, ORCHID, anycast services): nothing a schedule lives on.
        [0x2001, second, ..] if second < 0x200 => Some("IETF protocol assignment"),
        [first, ..] if first & 0xfe00 == 0xfc00 => Some("private network"), // fc00::/7 unique local
        [first, ..] if first & 0xffc0 == 0xfe80 => Some("link-local"),
        [first, ..] if first & 0xffc0 == 0xfec0 => Some("site-local"),
        [first, ..] if first & 0xff00 == 0xff00 => Some("multicast"),
        // Only 2000::/3 is allocated for global unicast; everything else is reserved or special.
        [first, ..] if first & 0xe000 != 0x2000 => Some("reserved"),
        _ => None,
    }
}

#[cfg(test)]
#[path = "address_tests.rs"]
mod tests;
