// The C library of the platform, for every module that calls POSIX directly.
//
// Linux (Glibc) is the platform Parley is built and tested on; the Darwin branch keeps the
// portable modules (ParleyKit, ParleyUI) and the POSIX code honest for Apple platforms but is
// never compiled here. This file and the others in ParleyPlatform are the only places where a
// platform is named, so what differs between them stays in one small, reviewable module.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("ParleyPlatform knows Glibc and Darwin only")
#endif
