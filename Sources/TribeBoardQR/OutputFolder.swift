import Foundation
import TribeBoardDomain
import TribeBoardSupport

/// The output folder: `DIR/qr/*.png` and `DIR/manifest.csv`. The codes are secrets, so a folder we
/// create is owner-only, `qr/` is always made owner-only, and every file we write is mode 0600.
package struct OutputFolder: Sendable {
    package let path: String
    package var qrDirectory: String { "\(path)/\(QRCodeFiles.directoryName)" }
    package var manifestPath: String { "\(path)/manifest.csv" }

    package struct Preparation: Sendable {
        package var tightenedQRDirectory = false
        package var removedTemporaryFiles = 0
        package var outputIsWorldReadable = false
        /// Others may create and rename entries in it: they could swap `qr/` for a link between
        /// two runs (each run refuses a linked `qr/`, but the operator should know).
        package var outputIsWorldWritable = false
    }

    package init(path: String) {
        self.path = path
    }

    package func prepare() throws(FileSystemError) -> Preparation {
        var preparation = Preparation()
        try makeDirectory(path)
        try makeDirectory(qrDirectory)
        if permissions(of: qrDirectory) & 0o077 != 0 {
            guard chmod(qrDirectory, 0o700) == 0 else {
                throw FileSystemError("restrict permissions of", path: qrDirectory)
            }
            preparation.tightenedQRDirectory = true
        }
        // An existing folder the operator chose is left as it is, but said out loud.
        preparation.outputIsWorldReadable = permissions(of: path) & 0o007 != 0
        preparation.outputIsWorldWritable =
            permissions(of: path) & 0o002 != 0 && permissions(of: path) & S_ISVTX == 0
        preparation.removedTemporaryFiles =
            AtomicFile.removeOrphans(in: qrDirectory) + AtomicFile.removeOrphans(in: path)
        guard access(qrDirectory, W_OK) == 0 else {
            throw FileSystemError("write to", path: qrDirectory)
        }
        return preparation
    }

    package func qrFileExists(for familyID: FamilyID) -> Bool {
        access("\(path)/\(QRCodeFiles.relativePath(for: familyID))", F_OK) == 0
    }

    /// Makes the folder, or checks the one there: a symbolic link is refused (the toolkit follows
    /// none it did not create: an output folder swapped for a link would receive the PNGs, and
    /// have its permissions changed and its temporary files deleted).
    private func makeDirectory(_ directory: String) throws(FileSystemError) {
        var link = stat()
        if lstat(directory, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            throw FileSystemError(
                "use", path: directory,
                reason: "it is a symbolic link, which the toolkit "
                    + "does not follow; give the real folder's path")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw FileSystemError("use", path: directory, reason: "it is a file, not a folder")
            }
            return
        }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw FileSystemError("create", path: directory)
        }
    }

    private func permissions(of directory: String) -> mode_t {
        var info = stat()
        guard stat(directory, &info) == 0 else { return 0 }
        return info.st_mode & 0o7777
    }
}
