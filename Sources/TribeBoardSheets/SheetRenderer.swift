import CCairoPango
import Foundation
import TribeBoardDomain

/// Draws invitations onto pages of a PDF (and one page onto a `--preview` PNG), emitting each
/// page as soon as it is full. Cards are held a page at a time: each is measured first, and a
/// page whose cards do not all fit 2 × 4 has 3 or 2 rows of taller cards. Every text is fitted
/// (`TextBox`): when one does not fit even then and cuts are not allowed, drawing stops, the
/// PDF's temporary file is dropped, the rest is only measured (to name every card concerned),
/// the preview shows the first page with such a card, marked, and `finish` throws.
package final class SheetRenderer {
    package let layout: SheetLayout
    package let paper: Paper
    let template: SheetTemplate
    let geometry: SheetGeometry
    private let outputPath: String?
    private let allowCut: Bool
    let logo: Logo?
    /// A PDF surface with no output: the layouts' metrics are the PDF's whatever they are shown on.
    private let measuringSurface: OpaquePointer
    private let measuring: OpaquePointer
    private let templateCJK: SheetFonts.CJKLanguage?
    /// Boxes not held by a card waiting for its page (a page's cards hold at most eight).
    private var spareBoxes: [InvitationBoxes] = []
    /// Boxes for what is only measured aside (a card with one-letter names, for a cut's cause).
    private lazy var asideBoxes = makeBoxes()
    /// The preview's "does not fit" line.
    private lazy var markBox = TextBox(
        measuring: measuring,
        font: "\(SheetFonts.text(templateCJK ?? .simplifiedChinese)) \(layout == .cards ? 8 : 14)")
    private var output: PDFOutput?
    private var preview: PreviewOutput?
    /// The preview shows a card that does not fit: it is kept (and written even on a refusal).
    private var previewShowsCut = false
    /// The cards of the page being made, each with the first of `SheetGeometry.cardShapes` it
    /// fits in (nil: none) and the boxes that measured it.
    private var pending: [Pending] = []
    package private(set) var invitations = 0
    package private(set) var pages = 0
    package private(set) var cuts = TextCuts()
    /// Characters printed as boxes: no installed face has them.
    package private(set) var missingCharacters = MissingCharacters()
    /// Invitations whose title or wording was set smaller than its size to fit.
    package private(set) var shrunk = 0
    /// Pages of cards set in fewer than 4 rows (taller cards) for their wording to fit.
    package private(set) var tallerPages = 0
    /// The template's placeholders that are not fields: a manifest's columns.
    package var templateColumns: [SheetTemplate.Column] { template.columns }

    private struct Pending {
        let invitation: Invitation
        let shape: Int?
        let boxes: InvitationBoxes
    }

    /// The smallest type text is set in, in points: 7 pt on cards (a newspaper's small print,
    /// read at arm's length by most readers), 9 pt for a letter's wording and 14 pt for its title.
    /// Family names are not shrunk: all of one run are set at one size (14 pt on cards, 30 pt on
    /// letters) and wrap at spaces and hyphens.
    package static let cardFloor = 7.0
    package static let letterFloor = 9.0
    package static let titleFloor = 14.0
    static let cardNamePoints = 14.0

    package init(
        outputPath: String?, preview: String? = nil, layout: SheetLayout, paper: Paper,
        template: SheetTemplate,
        allowCut: Bool = false
    ) throws(SheetError) {
        self.outputPath = outputPath
        self.layout = layout
        self.paper = paper
        self.template = template
        self.allowCut = allowCut
        geometry = SheetGeometry(paper: paper, layout: layout)
        templateCJK = SheetFonts.CJKLanguage(tag: template.language)
        do throws(SheetTemplateError) {
            logo = try template.logoPath.map { (path) throws(SheetTemplateError) in
                try Logo(path: path)
            }
        } catch {
            throw .template(error)
        }
        let (width, height) = paper.size
        // A NULL write function is cairo's documented no-op stream.
        guard let surface = cairo_pdf_surface_create_for_stream(nil, nil, width, height) else {
            throw .cairo("no measuring surface")
        }
        measuringSurface = surface
        measuring = cairo_create(surface)
        // The preview's place is checked now: a wrong path fails before any drawing.
        self.preview = try preview.map { (path) throws(SheetError) in
            try PreviewOutput(path: path, paper: paper)
        }
    }

    deinit {
        cairo_destroy(measuring)
        cairo_surface_destroy(measuringSurface)
    }

    /// Every set of boxes made (a page's worth at most, and the one aside).
    private var madeBoxes: [InvitationBoxes] = []

    private func makeBoxes() -> InvitationBoxes {
        let boxes = InvitationBoxes(
            measuring: measuring, layout: layout, language: template.language, cjk: templateCJK)
        madeBoxes.append(boxes)
        return boxes
    }

    /// How many times a text was handed to pango for this run's invitations (the cost of a run).
    package var textLayouts: Int { madeBoxes.reduce(0) { $0 + $1.layoutsMade } }

    /// A cut not allowed was met: nothing more is drawn in the PDF, nothing will be written.
    private var refusing: Bool { !allowCut && !cuts.isEmpty }

    /// Where a page is drawn: the PDF (created with the first invitation: no family, no file)
    /// unless refusing, and the preview for the first page, or for the first page with a card
    /// that does not fit (cleared for it).
    private func targets(pageHasCut: Bool) throws(SheetError) -> [OpaquePointer] {
        var targets: [OpaquePointer] = []
        if !refusing && !(pageHasCut && !allowCut), let outputPath {
            if output == nil { output = try PDFOutput(path: outputPath, paper: paper) }
            if let output { targets.append(output.context) }
        }
        if let preview, !previewShowsCut {
            if pageHasCut {
                preview.clear()
                previewShowsCut = true
                targets.append(preview.context)
            } else if pages == 0 {
                targets.append(preview.context)
            }
        }
        return targets
    }

    package func add(_ invitation: Invitation) throws(SheetError) {
        try Self.validate(invitation)
        invitations += 1
        let boxes = spareBoxes.popLast() ?? makeBoxes()
        guard layout == .cards else {
            // The first letter shape it fits whole (the last, cut, when none): the last measured,
            // which its boxes hold for the drawing.
            let shapes = SheetGeometry.letterShapes
            let fitting = shapes.firstIndex { shape in
                drawLetter(invitation, shape: shape, boxes, []).cut.isEmpty
            }
            try drawPage(
                [(invitation: invitation, boxes: boxes)],
                letter: shapes[fitting ?? shapes.count - 1], pageHasCut: fitting == nil)
            return
        }
        let shape = SheetGeometry.cardShapes.firstIndex { shape in
            drawCard(
                invitation, in: geometry.card(0, rows: shape.rows), qrShare: shape.qrShare, boxes,
                []
            ).cut.isEmpty
        }
        pending.append(Pending(invitation: invitation, shape: shape, boxes: boxes))
        if pending.count >= geometry.perPage { try flushPage() }
    }

    /// Draws the next page of held cards: as many as fit on a page of the first shape every one
    /// of them fits in (a card that fits in none is drawn in the last, cut).
    private func flushPage() throws(SheetError) {
        guard let head = pending.first else { return }
        let shapes = SheetGeometry.cardShapes, last = shapes.count - 1
        var shape = head.shape ?? last
        var count = 1
        while count < pending.count {
            let wider = max(shape, pending[count].shape ?? last)
            guard SheetGeometry.cardColumns * shapes[wider].rows > count else { break }
            shape = wider
            count += 1
        }
        let cards = pending.prefix(count)
        pending.removeFirst(count)
        if shapes[shape].rows < shapes[0].rows { tallerPages += 1 }
        try drawPage(
            cards.map { (invitation: $0.invitation, boxes: $0.boxes) }, shape: shapes[shape],
            pageHasCut: cards.contains { $0.shape == nil })
    }

    private func drawPage(
        _ page: [(invitation: Invitation, boxes: InvitationBoxes)],
        shape: SheetGeometry.CardShape = .init(rows: 1, qrShare: 0),
        letter: SheetGeometry.LetterShape = SheetGeometry.letterShapes[0], pageHasCut: Bool
    ) throws(SheetError) {
        let rows = shape.rows
        let targets = try targets(pageHasCut: pageHasCut)
        if layout == .cards {
            for target in targets { drawCutMarks(target, rows: rows, count: page.count) }
        }
        for (slot, (invitation, boxes)) in page.enumerated() {
            let frame = layout == .cards ? geometry.card(slot, rows: rows) : geometry.letterBody
            // Text is fitted by its logical size, but marks stacked on one letter (a name of
            // combining marks passes the app's 50-character rule) ink far above and below it: the
            // clip keeps every card's drawing inside its own card, clear of the line it is cut on.
            let inset = layout == .cards ? 4.0 : 0
            for target in targets {
                cairo_save(target)
                cairo_rectangle(
                    target, frame.x + inset, frame.y + inset, frame.width - 2 * inset,
                    frame.height - 2 * inset)
                cairo_clip(target)
            }
            let drawn =
                layout == .cards
                ? drawCard(invitation, in: frame, qrShare: shape.qrShare, boxes, targets)
                : drawLetter(invitation, shape: letter, boxes, targets)
            spareBoxes.append(boxes)
            for target in targets { cairo_restore(target) }
            for target in targets {
                try QRDrawing.draw(
                    invitation.code, in: target, x: drawn.qr.x, y: drawn.qr.y, size: drawn.qr.width)
            }
            record(
                drawn, of: invitation, shape: shape, letter: letter, frame: frame, targets: targets)
        }
        if refusing, let output {
            // Its temporary file goes now: the rest of the run only measures.
            self.output = nil
            output.abandon()
        }
        if !refusing { try output?.showPage() }
        pages += 1
    }

    /// Counts what `drawn` says of an invitation: its cuts (marked on the preview), the
    /// characters it shows as boxes, whether it was set smaller.
    private func record(
        _ drawn: DrawnInvitation, of invitation: Invitation, shape: SheetGeometry.CardShape,
        letter: SheetGeometry.LetterShape, frame: PageRect, targets: [OpaquePointer]
    ) {
        let cut = drawn.cut
        if !cut.isEmpty {
            cuts.record(
                familyId: invitation.familyId.rawValue, familyName: invitation.familyName,
                causes: causes(of: cut, in: invitation, shape: shape, letter: letter))
            if let preview, previewShowsCut, targets.contains(preview.context) {
                markCut(frame, fields: cut, on: preview.context)
            }
        }
        missingCharacters.record(
            familyId: invitation.familyId.rawValue, familyName: invitation.familyName,
            fits: drawn.fits.mapValues(\.missing))
        let smaller =
            letter != SheetGeometry.letterShapes[0]
            || drawn.fits.contains { [.wording, .title].contains($0.key) && $0.value.scale < 1 }
        if smaller { shrunk += 1 }
    }

    /// Why each text of `cut` does not fit: the template's own text when it does not fit with
    /// one-letter names either, else this family's data.
    private func causes(
        of cut: [SheetField], in invitation: Invitation, shape: SheetGeometry.CardShape,
        letter: SheetGeometry.LetterShape
    ) -> [SheetField: TextCuts.Cause] {
        let short = Invitation(
            familyId: invitation.familyId, familyName: "A", code: invitation.code,
            adminName: invitation.adminName == nil ? nil : "A",
            externalId: invitation.externalId.map { _ in "A" },
            columns: invitation.columns.mapValues { _ in "A" })
        let shortCut = Set(
            layout == .cards
                ? drawCard(
                    short, in: geometry.card(0, rows: shape.rows), qrShare: shape.qrShare,
                    asideBoxes, []
                ).cut
                : drawLetter(short, shape: letter, asideBoxes, []).cut)
        return Dictionary(
            uniqueKeysWithValues: cut.map {
                ($0, shortCut.contains($0) ? TextCuts.Cause.template : .data)
            })
    }

    /// A red frame and the fields that do not fit, on the preview only.
    private func markCut(_ frame: PageRect, fields: [SheetField], on target: OpaquePointer) {
        cairo_save(target)
        cairo_set_source_rgb(target, 0.85, 0, 0)
        cairo_set_line_width(target, 2)
        cairo_rectangle(target, frame.x + 2, frame.y + 2, frame.width - 4, frame.height - 4)
        cairo_stroke(target)
        cairo_restore(target)
        markBox.line(
            "does not fit: " + fields.map(\.rawValue).joined(separator: ", "), x: frame.x + 6,
            y: frame.y + frame.height - 16,
            width: frame.width - 12, minimumScale: 0.5, alignment: .natural, red: true, on: [target]
        )
    }

    /// Ends the last page, then names the files. Before this, nothing is at the output paths.
    package func finish() throws(SheetError) {
        guard invitations > 0 else { throw .nothingSelected }
        while !pending.isEmpty { try flushPage() }
        if refusing {
            // The preview shows the cards that do not fit, marked: what to look at.
            if previewShowsCut { try preview?.commit() }
            throw .textDoesNotFit(
                cuts, layout: layout, preview: previewShowsCut ? preview?.path : nil)
        }
        try output?.commit()
        try preview?.commit()
    }

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
        throw .invalidCode(
            familyId: invitation.familyId.rawValue, familyName: invitation.familyName,
            reason: reason)
    }

    func values(_ invitation: Invitation) -> [TemplateField: String] {
        [
            .familyName: invitation.familyName, .adminName: invitation.adminName ?? "",
            .code: invitation.code,
            .externalId: invitation.externalId ?? "", .organisation: template.organisation
        ]
    }

    /// "Administrator: Ann", or the label itself when it places `{admin_name}`; French sets a
    /// no-break space before the colon ("Administrateur : Anne"), as its typography requires.
    func adminLine(_ invitation: Invitation) -> String? {
        guard let name = invitation.adminName, !name.isEmpty else { return nil }
        if template.adminLabel.contains("{admin_name}") {
            return template.adminLabel.replacingOccurrences(of: "{admin_name}", with: name)
        }
        let french =
            template.language.lowercased() == "fr"
            || template.language.lowercased().hasPrefix("fr-")
        return "\(template.adminLabel)\(french ? "\u{00A0}:" : ":") \(name)"
    }
}
