//! Trusted proxies (`yezi serve --trusted-proxy CIDR`, see `docs/deploy.md`): which client a
//! request speaks for when the server sits behind a load balancer or a TLS proxy.
//!
//! Only when the TCP peer is inside a trusted range does the server believe what it says about the
//! client: the source address of a PROXY protocol header (version 1, the text line, or version 2,
//! the binary one) at the start of the connection, then the hops of the forwarded header of each
//! request (`X-Forwarded-For`, or `Forwarded`'s `for=` with `--forwarded-header forwarded`). The
//! client is the right-most hop that is not itself trusted: each trusted proxy appends the address
//! it got the request from, and anything to the left of the first untrusted hop was written by
//! someone nobody vouches for. A hop that is not an address (`unknown`, an obfuscated name) ends the
//! walk: the client is then the trusted proxy that wrote it. From any other peer the headers and
//! a PROXY line are ignored (a PROXY line is then a malformed HTTP request, answered `400`).

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use axum::http::HeaderMap;
use tokio::io::{AsyncRead, AsyncReadExt};

/// An IPv4 address seen through IPv6 (`::ffff:a.b.c.d`) counts as itself.
pub fn canonical_ip(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        ip => ip,
    }
}

/// A range of addresses, `ADDRESS/BITS` (an address alone is the range of just itself).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    bits: u8,
}

/// A `--trusted-proxy` that is not a range of addresses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--trusted-proxy {0:?}: expected ADDRESS or ADDRESS/BITS (10.0.0.0/8, 2001:db8::/32, 127.0.0.1)")]
pub struct CidrError(String);

/// `ip` with all but its first `bits` bits cleared.
fn masked(ip: IpAddr, bits: u8) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let m = if bits == 0 { 0 } else { u32::MAX << (32 - u32::from(bits)) };
            IpAddr::V4((u32::from(v4) & m).into())
        }
        IpAddr::V6(v6) => {
            let m = if bits == 0 { 0 } else { u128::MAX << (128 - u32::from(bits)) };
            IpAddr::V6((u128::from(v6) & m).into())
        }
    }
}

impl FromStr for Cidr {
    type Err = CidrError;

    fn from_str(s: &str) -> Result<Cidr, CidrError> {
        let bad = || CidrError(s.to_string());
        let t = s.trim();
        let (addr, bits) = match t.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (t, None),
        };
        let ip = canonical_ip(addr.trim_start_matches('[').trim_end_matches(']').parse().map_err(|_| bad())?);
        let max = if ip.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => max,
            Some(b) => b.parse::<u8>().ok().filter(|b| *b <= max).ok_or_else(bad)?,
        };
        Ok(Cidr { net: masked(ip, bits), bits })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.net, self.bits)
    }
}

impl Cidr {
    /// Whether `ip` is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical_ip(ip);
        ip.is_ipv4() == self.net.is_ipv4() && masked(ip, self.bits) == self.net
    }
}

/// The request header a trusted proxy names the client in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, proxy2` (what nginx and HAProxy write).
    #[default]
    XForwardedFor,
    /// `Forwarded: for=client, for=proxy1` (RFC 7239).
    Forwarded,
}

/// A `--forwarded-header` that names no header the server reads (the value as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--forwarded-header {0:?}: expected x-forwarded-for or forwarded")]
pub struct ForwardedHeaderError(String);

impl FromStr for ForwardedHeader {
    type Err = ForwardedHeaderError;

    fn from_str(s: &str) -> Result<ForwardedHeader, ForwardedHeaderError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(ForwardedHeader::XForwardedFor),
            "forwarded" => Ok(ForwardedHeader::Forwarded),
            _ => Err(ForwardedHeaderError(s.to_string())),
        }
    }
}

/// The proxies the server trusts, and the header they name the client in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proxies {
    /// The trusted ranges (none: no proxy is trusted, every header is ignored).
    pub ranges: Vec<Cidr>,
    /// The header read from them.
    pub header: ForwardedHeader,
}

/// One hop of a forwarded header: an address, or `None` for a hop that is not one.
fn hop(text: &str) -> Option<IpAddr> {
    let t = text.trim().trim_matches('"').trim();
    if let Ok(ip) = t.parse::<IpAddr>() {
        return Some(canonical_ip(ip));
    }
    if let Ok(sa) = t.parse::<SocketAddr>() {
        return Some(canonical_ip(sa.ip()));
    }
    // `[v6]` without a port.
    t.strip_prefix('[').and_then(|r| r.strip_suffix(']')).and_then(|r| r.parse().ok()).map(canonical_ip)
}

impl Proxies {
    /// Whether `ip` is a trusted proxy.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.ranges.iter().any(|c| c.contains(ip))
    }

    /// The hops of a request's forwarded header, in order (the nearest last).
    fn hops(&self, headers: &HeaderMap) -> Vec<Option<IpAddr>> {
        let mut out = Vec::new();
        match self.header {
            ForwardedHeader::XForwardedFor => {
                for v in headers.get_all("x-forwarded-for") {
                    let Ok(v) = v.to_str() else {
                        out.push(None);
                        continue;
                    };
                    out.extend(v.split(',').filter(|h| !h.trim().is_empty()).map(hop));
                }
            }
            ForwardedHeader::Forwarded => {
                for v in headers.get_all("forwarded") {
                    let Ok(v) = v.to_str() else {
                        out.push(None);
                        continue;
                    };
                    for element in v.split(',').filter(|e| !e.trim().is_empty()) {
                        let for_ = element.split(';').find_map(|pair| {
                            let (k, v) = pair.split_once('=')?;
                            k.trim().eq_ignore_ascii_case("for").then_some(v)
                        });
                        out.push(for_.and_then(hop));
                    }
                }
            }
        }
        out
    }

    /// The client of a request that reached the server from `from` (the TCP peer, or the source
    /// a PROXY header gave) with these headers: `from` itself unless it is trusted, else the
    /// right-most hop of the forwarded header that is not trusted (see the module's documentation).
    pub fn client(&self, from: IpAddr, headers: &HeaderMap) -> IpAddr {
        let from = canonical_ip(from);
        if !self.trusts(from) {
            return from;
        }
        let mut client = from;
        for h in self.hops(headers).into_iter().rev() {
            match h {
                Some(ip) => {
                    client = ip;
                    if !self.trusts(ip) {
                        return ip;
                    }
                }
                None => return client,
            }
        }
        client
    }
}

/// The PROXY protocol's version 2 signature.
const V2_SIGNATURE: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";

/// The longest version 1 line (`PROXY TCP6 …\r\n`), and the longest version 2 header taken.
const V1_MAX: usize = 107;
const V2_MAX: usize = 16 + 216;

/// What a trusted peer sent first: a PROXY header's source (`None` when it had none to give:
/// `UNKNOWN`, `LOCAL`, a family other than TCP over IPv4 or IPv6), or no PROXY header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProxyHeader {
    /// A PROXY header, with the client's address if it gave one.
    Source(Option<IpAddr>),
    /// The connection does not begin with a PROXY header.
    Absent,
}

/// A PROXY header that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// Not a valid header.
    #[error("a malformed PROXY protocol header")]
    Malformed,
    /// The connection failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Parses a version 1 line (without its `\r\n`).
fn parse_v1(line: &[u8]) -> Result<Option<IpAddr>, ProxyError> {
    let line = std::str::from_utf8(line).map_err(|_| ProxyError::Malformed)?;
    let mut parts = line.split(' ');
    if parts.next() != Some("PROXY") {
        return Err(ProxyError::Malformed);
    }
    match parts.next() {
        Some("UNKNOWN") => Ok(None),
        Some(fam @ ("TCP4" | "TCP6")) => {
            let src: IpAddr = parts.next().and_then(|s| s.parse().ok()).ok_or(ProxyError::Malformed)?;
            if (fam == "TCP4") != src.is_ipv4() {
                return Err(ProxyError::Malformed);
            }
            Ok(Some(canonical_ip(src)))
        }
        _ => Err(ProxyError::Malformed),
    }
}

/// Parses a whole version 2 header.
fn parse_v2(h: &[u8]) -> Result<Option<IpAddr>, ProxyError> {
    let ver_cmd = h[12];
    if ver_cmd >> 4 != 2 {
        return Err(ProxyError::Malformed);
    }
    let body = &h[16..];
    match (ver_cmd & 0x0f, h[13] >> 4) {
        (0, _) => Ok(None),
        (1, 1) if body.len() >= 12 => {
            let a: [u8; 4] = body[..4].try_into().map_err(|_| ProxyError::Malformed)?;
            Ok(Some(IpAddr::from(a)))
        }
        (1, 2) if body.len() >= 36 => {
            let a: [u8; 16] = body[..16].try_into().map_err(|_| ProxyError::Malformed)?;
            Ok(Some(canonical_ip(IpAddr::from(a))))
        }
        (1, 0 | 3) => Ok(None),
        _ => Err(ProxyError::Malformed),
    }
}

/// Reads what a trusted peer sends first: a PROXY header (version 1 or 2) or not. Gives the header
/// and the bytes read past it, which belong to the HTTP request that follows.
pub async fn read_proxy_header<R: AsyncRead + Unpin>(
    r: &mut R,
) -> Result<(ProxyHeader, Vec<u8>), ProxyError> {
    let mut buf: Vec<u8> = Vec::with_capacity(256);
    let mut chunk = [0u8; 256];
    loop {
        let v1 = b"PROXY ";
        let n = buf.len();
        if n >= v1.len() && buf.starts_with(v1) {
            if let Some(end) = buf.windows(2).position(|w| w == b"\r\n") {
                let source = parse_v1(&buf[..end])?;
                return Ok((ProxyHeader::Source(source), buf.split_off(end + 2)));
            }
            if n >= V1_MAX {
                return Err(ProxyError::Malformed);
            }
        } else if n >= 16 && buf.starts_with(&V2_SIGNATURE) {
            let total = 16 + usize::from(u16::from_be_bytes([buf[14], buf[15]]));
            if total > V2_MAX {
                return Err(ProxyError::Malformed);
            }
            if n >= total {
                let rest = buf.split_off(total);
                return Ok((ProxyHeader::Source(parse_v2(&buf)?), rest));
            }
        } else if !(v1.starts_with(&buf[..n.min(v1.len())]) || V2_SIGNATURE.starts_with(&buf[..n.min(12)])) {
            return Ok((ProxyHeader::Absent, buf));
        }
        let got = r.read(&mut chunk).await?;
        if got == 0 {
            return if buf.is_empty() || !buf.starts_with(v1) && !buf.starts_with(&V2_SIGNATURE) {
                Ok((ProxyHeader::Absent, buf))
            } else {
                Err(ProxyError::Malformed)
            };
        }
        buf.extend_from_slice(&chunk[..got]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ranges_parse_and_hold_their_addresses() {
        let c: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(c.contains(ip("10.255.1.2")));
        assert!(!c.contains(ip("11.0.0.1")));
        assert!(c.contains(ip("::ffff:10.1.2.3")), "an IPv4 address through IPv6");
        let one: Cidr = "127.0.0.1".parse().unwrap();
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        let v6: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:1::5")) && !v6.contains(ip("2001:db9::1")));
        assert!(!v6.contains(ip("10.0.0.1")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("8.8.8.8")));
        assert_eq!("10.1.2.3/8".parse::<Cidr>().unwrap().to_string(), "10.0.0.0/8");
        for bad in ["", "10.0.0.0/33", "::/129", "host.example", "10.0.0/8", "10.0.0.0/x"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad:?}");
        }
    }

    fn proxies(ranges: &[&str], header: ForwardedHeader) -> Proxies {
        Proxies { ranges: ranges.iter().map(|r| r.parse().unwrap()).collect(), header }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_client_is_the_rightmost_untrusted_hop_of_a_trusted_peer() {
        let p = proxies(&["127.0.0.1", "10.0.0.0/8"], ForwardedHeader::XForwardedFor);
        let xff = |v: &str| headers(&[("x-forwarded-for", v)]);
        // An untrusted peer's header is ignored.
        assert_eq!(p.client(ip("192.0.2.9"), &xff("203.0.113.1")), ip("192.0.2.9"));
        // A trusted peer's: the right-most hop not trusted.
        assert_eq!(p.client(ip("127.0.0.1"), &xff("203.0.113.1")), ip("203.0.113.1"));
        assert_eq!(p.client(ip("127.0.0.1"), &xff("6.6.6.6, 203.0.113.1, 10.1.1.1")), ip("203.0.113.1"));
        // Several header lines are one list, in order.
        let two = headers(&[("x-forwarded-for", "6.6.6.6"), ("x-forwarded-for", "198.51.100.7, 10.0.0.3")]);
        assert_eq!(p.client(ip("127.0.0.1"), &two), ip("198.51.100.7"));
        // Ports and brackets are allowed; an IPv4 address through IPv6 is itself.
        assert_eq!(p.client(ip("127.0.0.1"), &xff("[2001:db8::1]:443")), ip("2001:db8::1"));
        assert_eq!(p.client(ip("127.0.0.1"), &xff("198.51.100.7:5000")), ip("198.51.100.7"));
        assert_eq!(p.client(ip("::ffff:127.0.0.1"), &xff("::ffff:198.51.100.7")), ip("198.51.100.7"));
        // Every hop trusted: the left-most; no header: the peer; garbage: the proxy that wrote it.
        assert_eq!(p.client(ip("127.0.0.1"), &xff("10.0.0.1, 10.0.0.2")), ip("10.0.0.1"));
        assert_eq!(p.client(ip("127.0.0.1"), &HeaderMap::new()), ip("127.0.0.1"));
        assert_eq!(p.client(ip("127.0.0.1"), &xff("6.6.6.6, unknown, 10.0.0.2")), ip("10.0.0.2"));
        // Forwarded is not read when X-Forwarded-For is the header, and the other way round.
        let fwd = headers(&[("forwarded", "for=203.0.113.5")]);
        assert_eq!(p.client(ip("127.0.0.1"), &fwd), ip("127.0.0.1"));
        let f = proxies(&["127.0.0.1", "10.0.0.0/8"], ForwardedHeader::Forwarded);
        assert_eq!(f.client(ip("127.0.0.1"), &xff("203.0.113.1")), ip("127.0.0.1"));
        let fwd = headers(&[(
            "forwarded",
            "for=6.6.6.6;proto=http, For=\"[2001:db8:cafe::17]:4711\";by=10.0.0.1, for=10.0.0.2",
        )]);
        assert_eq!(f.client(ip("127.0.0.1"), &fwd), ip("2001:db8:cafe::17"));
        let hidden = headers(&[("forwarded", "for=6.6.6.6, for=_hidden, for=10.0.0.2")]);
        assert_eq!(f.client(ip("127.0.0.1"), &hidden), ip("10.0.0.2"));
    }

    async fn read(bytes: &[u8]) -> Result<(ProxyHeader, Vec<u8>), ProxyError> {
        let mut r = bytes;
        read_proxy_header(&mut r).await
    }

    #[tokio::test]
    async fn proxy_headers_of_both_versions_are_read_and_the_rest_kept() {
        let (h, rest) =
            read(b"PROXY TCP4 203.0.113.7 10.0.0.1 51000 80\r\nGET / HTTP/1.1\r\n").await.unwrap();
        assert_eq!(h, ProxyHeader::Source(Some(ip("203.0.113.7"))));
        assert_eq!(rest, b"GET / HTTP/1.1\r\n");
        let (h, _) = read(b"PROXY TCP6 2001:db8::9 ::1 1 2\r\n").await.unwrap();
        assert_eq!(h, ProxyHeader::Source(Some(ip("2001:db8::9"))));
        let (h, _) = read(b"PROXY UNKNOWN\r\n").await.unwrap();
        assert_eq!(h, ProxyHeader::Source(None));
        // Not a PROXY header: everything read is kept for HTTP (POST begins like PROXY).
        for http in [&b"POST /api/guests HTTP/1.1\r\n"[..], b"GET / HTTP/1.1\r\n", b"P"] {
            let (h, rest) = read(http).await.unwrap();
            assert_eq!(h, ProxyHeader::Absent);
            assert!(http.starts_with(&rest) && !rest.is_empty(), "{rest:?}");
        }
        // Version 2, TCP over IPv4, with bytes after it.
        let mut v2 = V2_SIGNATURE.to_vec();
        v2.extend([0x21, 0x11, 0, 12, 198, 51, 100, 4, 10, 0, 0, 1, 0xc3, 0x50, 0, 80]);
        v2.extend(b"GET");
        let (h, rest) = read(&v2).await.unwrap();
        assert_eq!((h, rest), (ProxyHeader::Source(Some(ip("198.51.100.4"))), b"GET".to_vec()));
        // LOCAL (a health check): no source.
        let mut local = V2_SIGNATURE.to_vec();
        local.extend([0x20, 0x00, 0, 0]);
        assert_eq!(read(&local).await.unwrap().0, ProxyHeader::Source(None));
        for bad in [&b"PROXY TCP4 nonsense\r\n"[..], b"PROXY TCP4 2001:db8::1 ::1 1 2\r\n", b"PROXY TCP4"] {
            assert!(read(bad).await.is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
        let long = [b"PROXY ".to_vec(), vec![b'1'; 200]].concat();
        assert!(read(&long).await.is_err());
    }
}
