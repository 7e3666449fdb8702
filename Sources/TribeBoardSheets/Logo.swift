import CCairoPango
import CRSVG
import Foundation

/// The template's logo, loaded once and painted on every letter. A PNG is an image surface; an
/// SVG is drawn by librsvg into a cairo recording surface, which the PDF keeps as vectors. Either
/// way the PDF holds it once, however many letters show it (cairo shares a source surface
/// between pages by its id).
final class Logo {
    /// Both kinds are read whole: a logo is a few kilobytes, and a bigger file is a mistake.
    static let maxBytes = 4 << 20
    /// A PNG is decoded to 4 bytes a pixel: 16 million pixels is 64 MB, a 4000 × 4000 image.
    static let maxPixels = 16_000_000
    /// The box on a letter, in points: tall enough to read, narrow enough to leave the
    /// organisation's name beside it.
    static let box = (width: 160.0, height: 48.0)

    private let surface: OpaquePointer
    /// The size the logo is painted at, in points, inside `box` and with the logo's proportions.
    let width: Double, height: Double
    /// What is painted is scaled by this (a PNG's pixels to points; 1 for an SVG, recorded at
    /// size).
    private let scale: Double

    init(path: String) throws(SheetTemplateError) {
        let bytes = try Self.read(path)
        if path.lowercased().hasSuffix(".svg") {
            (surface, width, height) = try Self.svg(bytes, path: path)
            scale = 1
        } else {
            let image = try Self.png(bytes, path: path)
            let pixels = (
                width: Double(cairo_image_surface_get_width(image)),
                height: Double(cairo_image_surface_get_height(image))
            )
            let fit = Self.fitted(aspect: pixels.width / pixels.height)
            (surface, scale) = (image, min(fit.width / pixels.width, fit.height / pixels.height))
            (width, height) = (pixels.width * scale, pixels.height * scale)
        }
    }

    deinit { cairo_surface_destroy(surface) }

    /// Paints the logo with its top left corner at (x, y).
    func draw(in context: OpaquePointer, x: Double, y: Double) {
        cairo_save(context)
        cairo_translate(context, x, y)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, surface, 0, 0)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// The largest size with this aspect ratio inside `box`. An absurd ratio (a hostile
    /// `width="1e30"`) is clamped rather than drawn as a hairline or refused.
    static func fitted(aspect: Double) -> (width: Double, height: Double) {
        let ratio = aspect.isFinite && aspect > 0 ? min(max(aspect, 1.0 / 20), 20) : 1
        let height = min(box.height, box.width / ratio)
        return (height * ratio, height)
    }

    private static func read(_ path: String) throws(SheetTemplateError) -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw errno == ENOENT
                ? .logoMissing(path: path)
                : .logo(path: path, reason: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .logo(path: path, reason: "not a regular file")
        }
        guard status.st_size <= maxBytes else {
            throw .logo(
                path: path,
                reason: "\(status.st_size) bytes; a logo may have at most \(maxBytes) (4 MB)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .logo(path: path, reason: "cannot be read")
        }
        return data
    }

    /// Reads the PNG's declared size before decoding it: a small file can declare a huge image.
    private static func png(_ bytes: Data, path: String) throws(SheetTemplateError) -> OpaquePointer
    {
        let header = [UInt8](bytes.prefix(24))
        guard header.count == 24, header[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        else {
            throw .logo(path: path, reason: "not a PNG (a logo is a .png or an .svg file)")
        }
        let number = { (at: Int) in header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (number(16), number(20))
        // Each side is up to 2³² − 1: their product can pass Int.max, so it is not trusted.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= maxPixels else {
            throw .logo(
                path: path,
                reason: "\(width) × \(height) pixels; a logo may have at most \(maxPixels)")
        }
        // Decoded from the bytes already read and checked, not from the path again.
        let source = PNGSource(bytes)
        let image = cairo_image_surface_create_from_png_stream(
            PNGSource.read, Unmanaged.passUnretained(source).toOpaque())
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS, let image else {
            cairo_surface_destroy(image)
            throw .logo(path: path, reason: Self.reason(status))
        }
        return image
    }

    /// The PNG's bytes as cairo reads them: a read past the end is a truncated file.
    private final class PNGSource {
        let bytes: Data
        var offset = 0
        init(_ bytes: Data) { self.bytes = bytes }

        static let read: cairo_read_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let source = Unmanaged<PNGSource>.fromOpaque(closure).takeUnretainedValue()
            let count = Int(length)
            guard source.bytes.count - source.offset >= count else {
                return CAIRO_STATUS_READ_ERROR
            }
            let start = source.bytes.startIndex + source.offset
            source.bytes.copyBytes(to: data, from: start..<start + count)
            source.offset += count
            return CAIRO_STATUS_SUCCESS
        }
    }

    /// Cairo reports every libpng error (a bad CRC, damaged compressed data) as "out of memory",
    /// its status for a failed decode; with the size checked above (64 MB at most) a real
    /// shortage is far less likely than a damaged file, so that is what is said.
    static func reason(_ status: cairo_status_t) -> String {
        switch status {
        case CAIRO_STATUS_NO_MEMORY: return "a corrupt PNG (libpng could not decode it: a damaged or truncated file?); save it again"
        case CAIRO_STATUS_READ_ERROR: return "a truncated or unreadable PNG; save it again"
        default: return "a PNG cairo cannot use: \(String(cString: cairo_status_to_string(status)))"
        }
    }

    /// librsvg with its default limits (libxml2's on entity expansion and depth, its own on
    /// element count), and without a base URL: it then loads nothing the SVG references but
    /// `data:` URLs, so `<image href="file:///etc/passwd">` or an XInclude reads no file.
    private static func svg(_ bytes: Data, path: String) throws(SheetTemplateError) -> (
        OpaquePointer, Double, Double
    ) {
        var error: UnsafeMutablePointer<GError>?
        let handle = bytes.withUnsafeBytes { raw in
            rsvg_handle_new_from_data(
                raw.bindMemory(to: guint8.self).baseAddress, gsize(raw.count), &error)
        }
        guard let handle else {
            throw .logo(path: path, reason: "not a usable SVG: \(message(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var size = (width: 0.0, height: 0.0)
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &size.width, &size.height) == 0 {
            var hasViewBox: gboolean = 0
            var viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
            size = hasViewBox != 0 ? (viewBox.width, viewBox.height) : (1, 1)
        }
        let fit = fitted(aspect: size.width / size.height)
        var extents = cairo_rectangle_t(x: 0, y: 0, width: fit.width, height: fit.height)
        guard let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)
        else {
            throw .logo(path: path, reason: "cairo could not make a surface for it")
        }
        let context = cairo_create(recording)
        var viewport = RsvgRectangle(x: 0, y: 0, width: fit.width, height: fit.height)
        let drawn = rsvg_handle_render_document(handle, context, &viewport, &error)
        cairo_destroy(context)
        guard drawn != 0, cairo_surface_status(recording) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(recording)
            throw .logo(path: path, reason: "librsvg could not draw it: \(message(error))")
        }
        return (recording, fit.width, fit.height)
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        // GLib's messages end with a newline.
        return error.pointee.message.map {
            String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines)
        } ?? "no reason given"
    }
}
