// SPDX-License-Identifier: Apache-2.0
/// How hard a download works to keep its file when the machine stops right after it
/// (AFNetworking and async-http-client's file delegate stop at the rename; `curl -o` does not
/// rename at all).
///
/// Either way the body goes to `destination.part` and is renamed into place only once complete,
/// so a crashed process never leaves a partial file at `destination`. What differs is a power
/// loss or kernel crash shortly after the download returned:
///
/// ```swift
/// var configuration = SessionConfiguration()
/// configuration.downloadDurability = .none  // scratch files that can be fetched again
/// ```
public enum DownloadDurability: Sendable, Hashable {
    /// The file's data is flushed to the disk (`fsync`) before the rename, and the folder after
    /// it, so a download that returned survives a power loss. The default. Costs a wait for the
    /// disk: about a third of a 100 MB download to a fast local disk.
    case synced
    /// Nothing is flushed: the rename is atomic for other processes, but after a power loss the
    /// file may be empty or missing, as with most tools' downloads.
    case none
}
