"""Playing online: the authoritative room server and the client's connection (no pygame here).

The server (`server`, its rooms service `roomservice`, `rooms`, and its storage behind the
`roomstore.RoomStore` protocol) owns every room's engine and sends each seat only its
view; each room's computers and turn clock run on a `game.play.TurnDriver`, and
everything the server times reads one `clock`. `wire` turns engine values into JSON and
back; `client` is the game's side of the socket. The protocol is written down in
docs/protocol.md.
"""
