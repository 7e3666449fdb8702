import CCairoPango
import Foundation
import TribeBoardDomain

/// Faces chosen for what they must show. Family names: Noto Sans, with fontconfig falling back to
/// the Noto face of each script (Arabic, Hebrew, Devanagari, Thai) and to Noto Sans CJK. Codes: DejaVu Sans Mono Bold, whose 0 is slashed and whose 1, I, 8, B, 5, S, 2 and Z
/// all differ, so a code typed from paper is typed right even with the app's older codes.
enum SheetFonts {
    /// Listed rather than left to fontconfig, which would take DejaVu Sans for Arabic and Hebrew.
    static let text = "Noto Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans Thai, Noto Sans CJK JP"
    static let code = "DejaVu Sans Mono Bold"
}

/// Draws invitations one by one onto pages of a PDF (and the first page onto a `--preview` PNG),
/// emitting each page as soon as it is full. Every text is fitted first (`TextBox`): when one
/// does not fit even in the smallest type and cuts are not allowed, drawing stops, the PDF's
/// temporary file is dropped, the rest is only measured (to name every family concerned) and
/// `finish` throws: nothing appears at the output paths.
package final class SheetRenderer {
    package let layout: SheetLayout
    package let paper: Paper
    private let template: SheetTemplate
    private let geometry: SheetGeometry
    private let outputPath: String?
    private let allowCut: Bool
    private let logo: Logo?
    /// A PDF surface with no output: the layouts' metrics are the PDF's whatever they are shown on.
    private let measuringSurface: OpaquePointer
    private let measuring: OpaquePointer
    private let boxes: Boxes
    private var output: PDFOutput?
    private var preview: PreviewOutput?
    private var slot = 0
    package private(set) var invitations = 0
    package private(set) var pages = 0
    package private(set) var cuts = TextCuts()
    /// Invitations whose title or wording was set smaller than its size to fit.
    package private(set) var shrunk = 0
    /// The template's placeholders that are not fields: a manifest's columns.
    package var templateColumns: [SheetTemplate.Column] { template.columns }

    private struct Boxes {
        let heading, name, label, code, small, body: TextBox
    }

    /// The smallest type text is set in, in points: 6 pt on cards (the size of a medicine
    /// leaflet's small print, still read at arm's length), 9 pt for a letter's wording and 14 pt
    /// for its title. Names may shrink to 0.4 of their size (6.8 pt on a card), as before.
    package static let cardFloor = 6.0
    package static let letterFloor = 9.0
    package static let titleFloor = 14.0

    package init(outputPath: String?, preview: String? = nil, layout: SheetLayout, paper: Paper, template: SheetTemplate,
                 allowCut: Bool = false) throws(SheetError) {
        self.outputPath = outputPath
        self.layout = layout
        self.paper = paper
        self.template = template
        self.allowCut = allowCut
        geometry = SheetGeometry(paper: paper, layout: layout)
        do throws(SheetTemplateError) {
            logo = try template.logoPath.map { (path) throws(SheetTemplateError) in try Logo(path: path) }
        } catch {
            throw .template(error)
        }
        let (width, height) = paper.size
        // A NULL write function is cairo's documented no-op stream.
        guard let surface = cairo_pdf_surface_create_for_stream(nil, nil, width, height) else { throw .cairo("no measuring surface") }
        measuringSurface = surface
        measuring = cairo_create(surface)
        boxes = Self.makeBoxes(measuring, layout: layout, language: template.language)
        // The preview's place is checked now: a wrong path fails before any drawing.
        self.preview = try preview.map { (path) throws(SheetError) in try PreviewOutput(path: path, paper: paper) }
    }

    deinit {
        cairo_destroy(measuring)
        cairo_surface_destroy(measuringSurface)
    }

    /// A cut not allowed was met: nothing more is drawn, nothing will be written.
    private var refusing: Bool { !allowCut && !cuts.isEmpty }

    /// Where this invitation is drawn: the PDF (created with the first invitation: no family, no
    /// file) and, on the first page, the preview. None once refusing: then it is only measured.
    private func targets() throws(SheetError) -> [OpaquePointer] {
        guard !refusing else { return [] }
        var targets: [OpaquePointer] = []
        if let outputPath {
            if output == nil { output = try PDFOutput(path: outputPath, paper: paper) }
            if let output { targets.append(output.context) }
        }
        if pages == 0, let preview { targets.append(preview.context) }
        return targets
    }

    package func add(_ invitation: Invitation) throws(SheetError) {
        try Self.validate(invitation)
        let targets = try targets()
        if layout == .cards && slot == 0 { for target in targets { drawCutMarks(target) } }
        let frame = layout == .cards ? geometry.card(slot) : geometry.letterBody
        // Text is fitted by its logical size, but marks stacked on one letter (a name of
        // combining marks passes the app's 50-character rule) ink far above and below it: the
        // clip keeps every card's drawing inside its own card, clear of the line it is cut on.
        let inset = layout == .cards ? 4.0 : 0
        for target in targets {
            cairo_save(target)
            cairo_rectangle(target, frame.x + inset, frame.y + inset, frame.width - 2 * inset, frame.height - 2 * inset)
            cairo_clip(target)
        }
        let fits = layout == .cards ? drawCard(invitation, in: frame, targets) : drawLetter(invitation, targets)
        for target in targets { cairo_restore(target) }
        for target in targets { try QRDrawing.draw(invitation.code, in: target, x: qrFrame.x, y: qrFrame.y, size: qrFrame.size) }
        let cut = fits.filter { $0.value.cut }.map(\.key).sorted()
        cuts.record(familyId: invitation.familyId.rawValue, familyName: invitation.familyName, fields: cut)
        if fits.contains(where: { ["wording", "title"].contains($0.key) && $0.value.scale < 1 }) { shrunk += 1 }
        if refusing, let output {
            // Its temporary file goes now: the rest of the run only measures.
            self.output = nil
            output.abandon()
        }
        invitations += 1
        slot += 1
        if slot == geometry.perPage { try endPage() }
    }

    /// Ends the last page, then names the files. Before this, nothing is at the output paths.
    package func finish() throws(SheetError) {
        guard invitations > 0 else { throw .nothingSelected }
        if refusing { throw .textDoesNotFit(cuts, layout: layout) }
        if slot > 0 { try endPage() }
        try output?.commit()
        try preview?.commit()
    }

    private var qrFrame = (x: 0.0, y: 0.0, size: 0.0)

    /// Exactly the app's wire format: a code that needs trimming or upper-casing to pass is one
    /// the app's scanner would read differently from what the store holds.
    package static func validate(_ invitation: Invitation) throws(SheetError) {
        let reason: String
        do {
            if try FamilyCode(validating: invitation.code).value == invitation.code { return }
            reason = "it is not written as the app writes it (upper case, no spaces)"
        } catch {
            reason = error.localizedDescription
        }
        throw .invalidCode(familyId: invitation.familyId.rawValue, familyName: invitation.familyName, reason: reason)
    }

    private func endPage() throws(SheetError) {
        if !refusing { try output?.showPage() }
        pages += 1
        slot = 0
    }

    private static func makeBoxes(_ context: OpaquePointer, layout: SheetLayout, language: String) -> Boxes {
        func box(_ font: String, _ language: String? = nil) -> TextBox { TextBox(measuring: context, font: font, language: language) }
        if layout == .cards {
            return Boxes(heading: box("\(SheetFonts.text) 8", language), name: box("\(SheetFonts.text) Bold 17"),
                         label: box("\(SheetFonts.text) 9", language), code: box("\(SheetFonts.code) 24"),
                         small: box("\(SheetFonts.text) 9.5"), body: box("\(SheetFonts.text) 7.5", language))
        }
        return Boxes(heading: box("\(SheetFonts.text) Bold 22", language), name: box("\(SheetFonts.text) Bold 34"),
                     label: box("\(SheetFonts.text) 13", language), code: box("\(SheetFonts.code) 48"),
                     small: box("\(SheetFonts.text) 14"), body: box("\(SheetFonts.text) 13", language))
    }

    private func values(_ invitation: Invitation) -> [TemplateField: String] {
        [.familyName: invitation.familyName, .adminName: invitation.adminName ?? "", .code: invitation.code,
         .externalId: invitation.externalId ?? "", .organisation: template.organisation]
    }

    /// "Administrator: Ann", or the label itself when it places `{admin_name}`; French sets a
    /// no-break space before the colon ("Administrateur : Anne"), as its typography requires.
    private func adminLine(_ invitation: Invitation) -> String? {
        guard let name = invitation.adminName, !name.isEmpty else { return nil }
        if template.adminLabel.contains("{admin_name}") { return template.adminLabel.replacingOccurrences(of: "{admin_name}", with: name) }
        let french = template.language.lowercased() == "fr" || template.language.lowercased().hasPrefix("fr-")
        return "\(template.adminLabel)\(french ? "\u{00A0}:" : ":") \(name)"
    }

    private func drawCutMarks(_ context: OpaquePointer) {
        cairo_set_source_rgb(context, 0.4, 0.4, 0.4)
        cairo_set_line_width(context, 0.5)
        for mark in geometry.cutMarks {
            cairo_move_to(context, mark.x0, mark.y0)
            cairo_line_to(context, mark.x1, mark.y1)
        }
        cairo_stroke(context)
    }

    /// Draws one card; how each of its texts fitted, by field.
    private func drawCard(_ invitation: Invitation, in card: PageRect, _ targets: [OpaquePointer]) -> [String: TextBox.Fit] {
        var fits: [String: TextBox.Fit] = [:]
        let pad = 10.0, inner = card.width - 2 * pad, floor = Self.cardFloor
        var y = card.y + pad
        if !template.organisation.isEmpty {
            let fit = boxes.heading.line(template.organisation, x: card.x + pad, y: y, width: inner, minimumScale: floor / 8, gray: 0.35, on: targets)
            fits["organisation"] = fit
            y += fit.height
        }
        // 0.4 of 17 points still reads: a 50-character name (the app's longest) fits whole.
        let name = boxes.name.line(invitation.familyName, x: card.x + pad, y: y, width: inner, minimumScale: 0.4, on: targets)
        fits["family_name"] = name
        y += name.height + 4
        let qrSize = min(card.y + card.height - pad - y, card.width * 0.42)
        qrFrame = (card.x + pad, y, qrSize)
        let column = card.x + pad + qrSize + 6
        let columnWidth = card.x + card.width - pad - column
        let label = boxes.label.line(template.codeLabel, x: column, y: y + 4, width: columnWidth, minimumScale: floor / 9,
                                     alignment: .natural, gray: 0.35, on: targets)
        fits["code_label"] = label
        y += label.height + 8
        let code = boxes.code.line(invitation.code, x: column, y: y, width: columnWidth, minimumScale: 0.3, alignment: .natural, on: targets)
        fits["code"] = code
        y += code.height + 2
        if let admin = adminLine(invitation) {
            let fit = boxes.small.line(admin, x: column, y: y, width: columnWidth, minimumScale: floor / 9.5, alignment: .natural, on: targets)
            fits["admin_name"] = fit
            y += fit.height + 3
        }
        // The wording is in the column beside the QR code down to the card's foot when it fits
        // there at full size; if not, it fills the column, then the card's width below the code.
        let qrBottom = qrFrame.y + qrSize + 3
        let bottom = card.y + card.height - pad
        let regions = [PageRect(x: column, y: y, width: columnWidth, height: qrBottom - y),
                       PageRect(x: card.x + pad, y: qrBottom, width: inner, height: bottom - qrBottom)]
        fits["wording"] = boxes.body.block(template.body.filled(values(invitation), columns: invitation.columns), first: [PageRect(x: column, y: y, width: columnWidth, height: bottom - y)],
                                           regions: regions, minimumScale: floor / 7.5, on: targets)
        return fits
    }

    /// Draws one letter; how each of its texts fitted, by field.
    private func drawLetter(_ invitation: Invitation, _ targets: [OpaquePointer]) -> [String: TextBox.Fit] {
        var fits: [String: TextBox.Fit] = [:]
        let page = geometry.letterBody
        var y = page.y
        var textX = page.x
        if let logo {
            for target in targets { logo.draw(in: target, x: page.x, y: page.y + (Logo.box.height - logo.height) / 2) }
            textX += logo.width + 12
        }
        if !template.organisation.isEmpty {
            fits["organisation"] = boxes.label.line(template.organisation, x: textX, y: page.y + 14, width: page.x + page.width - textX,
                                                    minimumScale: 0.6, alignment: .natural, gray: 0.35, on: targets)
        }
        y += 64
        let fields = values(invitation)
        // Up to four lines of 14 pt, three of 22.
        let title = boxes.heading.block(template.title.filled(fields, columns: invitation.columns), regions: [PageRect(x: page.x, y: y, width: page.width, height: 80)],
                                        minimumScale: Self.titleFloor / 22, on: targets)
        fits["title"] = title
        y += title.height + 12
        let name = boxes.name.line(invitation.familyName, x: page.x, y: y, width: page.width, minimumScale: 0.4, on: targets)
        fits["family_name"] = name
        y += name.height + 12
        let qrSize = 200.0
        qrFrame = (page.x + (page.width - qrSize) / 2, y, qrSize)
        y += qrSize + 8
        let label = boxes.label.line(template.codeLabel, x: page.x, y: y, width: page.width, minimumScale: 0.6, gray: 0.35, on: targets)
        fits["code_label"] = label
        y += label.height
        let code = boxes.code.line(invitation.code, x: page.x, y: y, width: page.width, minimumScale: 0.3, on: targets)
        fits["code"] = code
        y += code.height + 6
        if let admin = adminLine(invitation) {
            let fit = boxes.small.line(admin, x: page.x, y: y, width: page.width, minimumScale: 0.5, on: targets)
            fits["admin_name"] = fit
            y += fit.height + 6
        }
        y += 12
        fits["wording"] = boxes.body.block(template.body.filled(fields, columns: invitation.columns), regions: [PageRect(x: page.x, y: y, width: page.width, height: page.y + page.height - y)],
                                           minimumScale: Self.letterFloor / 13, on: targets)
        return fits
    }
}
