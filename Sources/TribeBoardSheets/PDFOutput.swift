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
    }

    init(path: String, paper: Paper) throws(SheetError) {
        var status = stat()
        if lstat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFLNK: throw .cannotCreate(path: path, reason: "it is a symbolic link; name the file itself")
            case S_IFREG: break
            default: throw .cannotCreate(path: path, reason: "something other than a file is in the way")
            }
        }
        let file: StreamingFile
        do {
            file = try StreamingFile(path: path)
        } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
        sink = Sink(file: file)
        let (width, height) = paper.size
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
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
        }, closure, width, height)
        context = cairo_create(surface)
        try check()
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
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

    private func check() throws(SheetError) {
        if let error = sink.error { throw .write(error) }
        let status = cairo_status(context) != CAIRO_STATUS_SUCCESS ? cairo_status(context) : cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
    }
}
