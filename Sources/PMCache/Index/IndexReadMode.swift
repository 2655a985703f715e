import CSQLite
import Foundation

/// How a command that only reads (`stats`, `verify`, `prune --dry-run`) opens the index.
///
/// A WAL database opens read-only only when its `-wal` and `-shm` files already exist or can be
/// created beside it (SQLite, "Read-Only Databases" in wal.html). A cache folder the user cannot
/// write (another uid's cache, a read-only mount) that a writer closed cleanly has neither, and
/// a read-only open then fails on its first read ("attempt to write a readonly database").
/// `immutable` reads the main file alone: no `-wal`, no `-shm`, no locks.
public enum IndexReadMode: Sendable, Equatable {
    /// SQLITE_OPEN_READONLY through the WAL: sees every commit, beside a live writer.
    case shared
    /// SQLITE_OPEN_READONLY on `file:…?immutable=1`: sees what was checkpointed into the main
    /// file, not the commits a running writer still holds in its `-wal`.
    case immutable
    /// SQLITE_OPEN_READWRITE, then `query_only`: a writer killed during a commit in rollback-journal
    /// mode (while it created the index) leaves a hot journal, which only a connection that may
    /// write can roll back; after that no statement of this connection changes a row.
    case recovering

    /// The modes to try, in order. In a folder the user can write, SQLite makes the files it
    /// needs, and what a killed writer left is rolled back. In one it cannot, `shared` can work only on the `-wal` and `-shm` a writer left
    /// (a live one, or one killed), and `immutable` is what is left when it fails.
    public static func attempts(folderWritable: Bool, walFilesPresent: Bool) -> [IndexReadMode] {
        if folderWritable { return [.shared, .recovering] }
        return walFilesPresent ? [.shared, .immutable] : [.immutable]
    }

    /// The modes to try for the index at `path`, from its folder's write access and its WAL files.
    public static func attempts(forIndexAt path: String) -> [IndexReadMode] {
        let folder = (path as NSString).deletingLastPathComponent
        let files = FileManager.default
        // access(2) answers for this process's uid and for a read-only mount (EROFS) alike.
        let writable = access(folder.isEmpty ? "." : folder, W_OK) == 0
        let walFiles = files.isReadableFile(atPath: path + "-wal") && files.isReadableFile(atPath: path + "-shm")
        return attempts(folderWritable: writable, walFilesPresent: walFiles)
    }

    /// Whether a `shared` open failed for want of write access, which `immutable` does not need;
    /// any other error (damage, a missing file) is the index's own and is reported as it is.
    static func writeAccessWasMissing(_ error: IndexError) -> Bool {
        [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM].contains(error.code & 0xff)
    }

    /// The one line a command says when it read the index `immutable`.
    public static func lagNote(indexPath: String) -> String {
        "\(indexPath): read as an immutable snapshot, as its folder cannot be written; "
            + "results may lag a running writer"
    }
}
