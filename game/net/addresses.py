"""Where a connection comes from: the peer's address, or behind a trusted proxy the client's.

The per-address quotas (`quotas`) mean something only if the address is the player's.
A server reached directly sees it as the socket's peer. Behind a reverse proxy that
ends TLS, every connection comes from the proxy: with ``--proxy-headers`` the server
reads the client's address from the ``X-Forwarded-For`` header, but only on a
connection whose peer is a ``--trusted-proxy`` (anyone else could write that header).
The header's addresses are read from the right (each proxy appends the address it
saw) and the first that is not a trusted proxy is the client.

Loopback connections (127.0.0.0/8, ``::1``) are exempt from the connection quota, so
"Host on this computer" and a benchmark on the same machine are not limited, but only
when no proxy is configured: behind a proxy on the same host every connection would
come from loopback. A loopback connection that carries a proxy's header
(`FORWARDING_HEADERS`) comes through a proxy nobody declared, and is not exempt either.

An IPv6 client counts by its /64 network, the block one subscriber is usually given
(an address of its own per connection would otherwise escape every quota).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

UNKNOWN: Final = "?"
IPV6_PREFIX: Final = 64
MAX_FORWARDED: Final = 32  # addresses of X-Forwarded-For read at most (from the right)
FORWARDING_HEADERS: Final = ("X-Forwarded-For", "Forwarded", "X-Real-IP")
"""Headers a reverse proxy adds: a connection carrying one came through a proxy."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_network(text: str) -> Network:
    """A ``--trusted-proxy`` value: an address (``10.0.0.2``) or a network (``10.0.0.0/8``).

    Raises:
        ValueError: neither.
    """
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(f"expected an IP address or network such as 10.0.0.2 or 10.0.0.0/8, "
                         f"not {text.strip()[:60]!r}") from None


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as a header or a socket gives it (``1.2.3.4``, ``1.2.3.4:5678``,
    ``[::1]:80``, ``::1``), or None."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # IPv4 with a port
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@dataclass(frozen=True)
class AddressPolicy:
    """How the server reads a connection's address (see the module).

    ``proxy_headers``: read ``X-Forwarded-For`` from ``trusted`` peers. ``exempt_loopback``:
    whether loopback is exempt from the connection quota when no proxy is configured.
    """

    proxy_headers: bool = False
    trusted: tuple[Network, ...] = field(default=())
    exempt_loopback: bool = True

    @classmethod
    def of(cls, proxy_headers: bool = False, trusted: Iterable[str | Network] = (),
           exempt_loopback: bool = True) -> AddressPolicy:
        """A policy from flag values.

        Raises:
            ValueError: a trusted proxy that is not an address or a network.
        """
        networks = tuple(t if isinstance(t, Network) else trusted_network(t) for t in trusted)
        return cls(proxy_headers, networks, exempt_loopback)

    @property
    def behind_proxy(self) -> bool:
        """Whether a proxy is configured (then nothing is exempt)."""
        return self.proxy_headers or bool(self.trusted)

    def is_trusted(self, peer: str) -> bool:
        """Whether ``peer`` is one of the trusted proxies."""
        address = _address(peer)
        return address is not None and any(address in network for network in self.trusted)

    def client(self, peer: str, forwarded: Iterable[str] = ()) -> str:
        """The client's address for a connection from ``peer`` carrying these
        ``X-Forwarded-For`` values (``forwarded``: every such header, in order)."""
        if not self.proxy_headers or not self.is_trusted(peer):
            return canonical(peer)
        entries = [e for value in forwarded for e in value.split(",")][-MAX_FORWARDED:]
        for entry in reversed(entries):
            address = _address(entry)
            if address is None:
                break  # not written by a proxy we trust: the proxy's own address is all we know
            if not any(address in network for network in self.trusted):
                return str(address)
        return canonical(peer)

    def exempt(self, address: str, proxied: bool = False) -> bool:
        """Whether ``address`` is exempt from the connection quota: loopback, with no proxy
        configured and none seen (``proxied``: the request carries a proxy's header)."""
        if not self.exempt_loopback or self.behind_proxy or proxied:
            return False
        parsed = _address(address)
        return parsed is not None and parsed.is_loopback


def canonical(peer: str) -> str:
    """A socket's peer address in one spelling (an IPv4-mapped IPv6 address as IPv4)."""
    address = _address(peer)
    return str(address) if address is not None else (peer or UNKNOWN)


def quota_key(address: str) -> str:
    """What the quotas count ``address`` under: itself, or for IPv6 its /64 network."""
    parsed = _address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed) if parsed is not None else address
