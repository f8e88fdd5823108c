// The portable wire formats (JSON, header lists, Pusher messages) live in ParleyWireCore so
// that ParleyKit can use them on Apple platforms without libcrypto or zlib; every module that
// imports ParleyWire keeps seeing them.
@_exported import ParleyWireCore
