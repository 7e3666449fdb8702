import CCairoPango
import TribeBoardQR

/// A QR code as a stencil mask: the libqrencode matrix (the same encoding as provision's PNGs),
/// one bit a module, scaled to its square without interpolation. The PDF gets an image mask of
/// about a hundred bytes drawn in black (`/ImageMask`, `/Interpolate false`): a printer or viewer
/// sets each module as a sharp square at its own resolution, as it would rectangles, while a
/// path of the same code (a stroke per run of dark modules) wrote some 4 KB of coordinates a
/// card, which formatting and compressing made half of a run's time.
enum QRDrawing {
    /// The quiet zone the QR specification requires around the symbol, in modules.
    static let quietZone = 4

    /// Draws the code's symbol and its quiet zone in the square at (x, y) of side `size`.
    static func draw(_ code: String, in context: OpaquePointer, x: Double, y: Double, size: Double)
        throws(SheetError)
    {
        do {
            try QRCodeEncoder.withModules(of: code) { (modules) throws(QRCodeError) in
                let module = size / Double(modules.width + 2 * quietZone)
                cairo_set_source_rgb(context, 1, 1, 1)
                cairo_rectangle(context, x, y, size, size)
                cairo_fill(context)
                guard let mask = stencil(modules) else { return }
                defer { cairo_surface_destroy(mask) }
                cairo_save(context)
                cairo_translate(
                    context, x + Double(quietZone) * module, y + Double(quietZone) * module)
                cairo_scale(context, module, module)
                cairo_set_source_rgb(context, 0, 0, 0)
                let pattern = cairo_pattern_create_for_surface(mask)
                cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
                cairo_mask(context, pattern)
                cairo_pattern_destroy(pattern)
                cairo_restore(context)
            }
        } catch {
            throw .qr(error)
        }
    }

    /// The dark modules as a 1-bit image (a pixel a module, opaque where dark); nil when cairo
    /// cannot make one (out of memory), and the code is then drawn without them: the check of
    /// the PDF (`--verify`) would fail it.
    private static func stencil(_ modules: QRCodeModules) -> OpaquePointer? {
        let side = Int32(clamping: modules.width)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A1, side, side),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
            let data = cairo_image_surface_get_data(surface)
        else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        // 32-bit words of pixels whose first is the word's least significant bit on a
        // little-endian machine (bit 0 of its first byte), its most significant on a big-endian
        // one (bit 7 of its first byte): either way pixel n is in byte n / 8.
        let littleEndian = 1.littleEndian == 1
        for row in 0..<modules.width {
            for column in 0..<modules.width where modules.isDark(x: column, y: row) {
                let shift = littleEndian ? column % 8 : 7 - column % 8
                data[row * stride + column / 8] |= UInt8(1) << UInt8(shift)
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
