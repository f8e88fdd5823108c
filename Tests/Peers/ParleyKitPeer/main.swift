// A ParleyKit client process for the Python reliability tests (Tests/interop).
//
//   ParleyKitPeer --server http://HOST:PORT --token TOKEN [--app-key KEY] [--store PATH]
//                 [--initial-delay-ms N] [--max-delay-ms N] [--ca PEM] [--http socket|urlsession]
//
// Reads commands from stdin, one per line, and answers each with exactly one JSON line
// {"event":"done","command":...} (plus results) or {"event":"error",...}, in order:
//   connect | disconnect              start / stop the realtime connection (and reconnects)
//   network on|off                    simulate losing the network (HTTP and realtime)
//   fail-history N                    the next N history reads fail with 503
//   watch ROOM [AFTER_SEQ]            report the room's new messages from AFTER_SEQ on
//   send ROOM TEXT...                 queue a message in the outbox (answer: its client_id)
//   outbox                            the outbox entries
//   history ROOM                      the room's whole history through the SDK
//   quit                              close the client and exit 0
// Meanwhile it reports {"event":"state"}, {"event":"message"} and {"event":"outbox_changed"}.
// With --store the outbox lives in that SQLite file and survives the process.

import Glibc
import ParleyKit

let options = PeerOptions(CommandLine.arguments)
let peer: KitPeer
do {
    peer = try KitPeer(options: options)
} catch {
    PeerOutput.fail("cannot create the client: \(error)")
}
await peer.reportStates()
PeerOutput.emit(["event": .string("ready")])
while let line = readLine() {
    guard await peer.handle(line) else { exit(0) }
}
exit(0)
