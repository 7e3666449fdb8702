import CCairoPango
import Foundation
import TribeBoardSupport

/// `--preview FILE.png`: the first page drawn on a cairo image surface and written as a PNG, so an
/// office checks a template on screen before printing hundreds. Like the PDF, it appears only
/// once complete (through `StreamingFile`), owner-only (it shows up to eight families' codes).
final class PreviewOutput {
    /// Enough for the QR codes to scan from the screen and the smallest type (6 pt) to read:
    /// an A4 page is 1240 × 1754 pixels.
    static let dotsPerInch = 150.0

    let path: String
    let surface: OpaquePointer
    let context: OpaquePointer

    init(path: String, paper: Paper) throws(SheetError) {
        try PDFOutput.checkPlace(path)
        self.path = path
        let scale = Self.dotsPerInch / 72
        let (width, height) = paper.size
        surface = cairo_image_surface_create(
            CAIRO_FORMAT_RGB24, Int32((width * scale).rounded()), Int32((height * scale).rounded()))
        context = cairo_create(surface)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, scale, scale)
        if cairo_status(context) != CAIRO_STATUS_SUCCESS {
            throw .cairo(String(cString: cairo_status_to_string(cairo_status(context))))
        }
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Blank again, for another page.
    func clear() {
        cairo_save(context)
        cairo_identity_matrix(context)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Writes the page drawn so far as the PNG at `path`.
    func commit() throws(SheetError) {
        let file: StreamingFile
        do { file = try StreamingFile(path: path) } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
        let sink = PDFOutput.Sink(file: file)
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png_stream(
            surface, PDFOutput.Sink.write, Unmanaged.passUnretained(sink).toOpaque())
        if let error = sink.error { file.abandon(); throw .write(error) }
        guard status == CAIRO_STATUS_SUCCESS else {
            file.abandon(); throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        do { try file.commit() } catch { throw .write(error) }
    }
}
