import CCairoPango
import Foundation
import TribeBoardSupport

/// The PDF being written: a cairo PDF surface whose bytes stream into an owner-only temporary
/// file, renamed over `path` only once the document is complete. Cairo writes each page's content
/// when the page is shown, so memory does not grow with the number of pages.
final class PDFOutput {
    let surface: OpaquePointer
    let context: OpaquePointer
    private let sink: Sink

    /// Receives cairo's bytes; the first write error is kept, later writes are refused.
    final class Sink {
        let file: StreamingFile
        var error: FileSystemError?
        init(file: StreamingFile) { self.file = file }

        /// Cairo's write function for a stream whose closure is an unretained `Sink`.
        static let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
            guard sink.error == nil else { return CAIRO_STATUS_WRITE_ERROR }
            do throws(FileSystemError) {
                try sink.file.append(UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            } catch {
                sink.error = error
                return CAIRO_STATUS_WRITE_ERROR
            }
        }
    }

    init(path: String, paper: Paper) throws(SheetError) {
        try Self.checkPlace(path)
        let file: StreamingFile
        do {
            file = try StreamingFile(path: path)
        } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
        sink = Sink(file: file)
        let (width, height) = paper.size
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        surface = cairo_pdf_surface_create_for_stream(Sink.write, closure, width, height)
        context = cairo_create(surface)
        try check()
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        sink.file.abandon()
    }

    /// Drops the temporary file now; cairo's later writes (its trailer, at deinit) are refused.
    func abandon() {
        sink.error = FileSystemError("write", path: sink.file.path, reason: "the PDF was abandoned")
        sink.file.abandon()
    }

    func showPage() throws(SheetError) {
        cairo_show_page(context)
        try check()
    }

    /// Ends the document and names the file; before this, nothing is at `path`.
    func commit() throws(SheetError) {
        cairo_surface_finish(surface)
        try check()
        do {
            try sink.file.commit()
        } catch {
            throw .write(error)
        }
    }

    /// What is at `path` is replaced only if it is a file of ours that we may write: a symbolic
    /// link is not followed (nor a folder that is one, as provision refuses an `--out` folder that
    /// is a link), and someone else's file, or one made read-only, is not silently replaced
    /// (rename would replace either, as the folder is ours).
    static func checkPlace(_ path: String) throws(SheetError) {
        var status = stat()
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if lstat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK {
            throw .cannotCreate(
                path: path,
                reason: "its folder \(folder) is a symbolic link, which the "
                    + "toolkit does not follow; give the real folder's path")
        }
        guard lstat(path, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFLNK:
            throw .cannotCreate(path: path, reason: "it is a symbolic link; name the file itself")
        case S_IFREG: break
        default:
            throw .cannotCreate(path: path, reason: "something other than a file is in the way")
        }
        if status.st_uid != geteuid() {
            throw .cannotCreate(path: path, reason: "the file there belongs to someone else (uid \(status.st_uid)); remove it or choose another name")
        }
        if status.st_mode & S_IWUSR == 0 {
            throw .cannotCreate(
                path: path, reason: "the file there is read-only; remove it or choose another name")
        }
    }

    private func check() throws(SheetError) {
        if let error = sink.error { throw .write(error) }
        let status =
            cairo_status(context) != CAIRO_STATUS_SUCCESS
            ? cairo_status(context) : cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
    }
}
