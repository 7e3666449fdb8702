import Foundation
import Logging
import TribeBoardDomain
import TribeBoardStore

/// What `sheets` is asked to make: the PDF, its layout and template, and how strict to be.
package struct SheetsRequest: Sendable {
    package let out: String?
    package let layout: SheetLayout
    package let paper: Paper
    package let template: String?
    package var preview: String?
    package var allowCut = false
    /// The store was named (--store, TRIBEBOARD_STORE): its codes win over a manifest's.
    package var storeNamed = true
    /// A remote is configured and --include-unclaimed was not given: a code the store holds
    /// no claim of is refused (`SheetError.unclaimed`).
    package var refuseUnclaimed = false

    package init(out: String?, layout: SheetLayout, paper: Paper, template: String?, preview: String? = nil, allowCut: Bool = false,
                 storeNamed: Bool = true, refuseUnclaimed: Bool = false) {
        self.out = out
        self.layout = layout
        self.paper = paper
        self.template = template
        self.preview = preview
        self.allowCut = allowCut
        self.storeNamed = storeNamed
        self.refuseUnclaimed = refuseUnclaimed
    }
}

/// `sheets`' pipeline: the families read (from a manifest checked against the store, or from the
/// store's selection), checked (codes, claims, ids asked for) and drawn into the PDF, and the
/// report. The command only parses its options, calls this and renders the report. Two loggers:
/// `logger` for what only the log says, `repeated` for what the report's summary says too (the
/// command drops its warnings when the summary is on the terminal).
package struct SheetsPipeline {
    let request: SheetsRequest
    let storePath: String
    let logger: Logger
    let repeated: Logger

    package init(_ request: SheetsRequest, storePath: String, logger: Logger, repeated: Logger) {
        self.request = request
        self.storePath = storePath
        self.logger = logger
        self.repeated = repeated
    }

    /// The PDF of a manifest's families, with the store's admins, and its codes checked
    /// against the store's (`ManifestCodeCheck`).
    package func print(manifest: String) throws(SheetError) -> SheetsReport {
        // The manifest does not carry the admin, and its codes may be older than the store's.
        var store: ReadOnlyStore?
        if FileManager.default.fileExists(atPath: storePath) {
            do {
                store = try TribeBoardStore.openReadOnly(at: storePath)
            } catch {
                // A store named to settle the codes must be read; one only found is a bonus.
                if request.storeNamed { throw SheetError.input(.store(error)) }
                logger.warning("cannot read the store: admins' names are left out and the manifest's codes are unchecked",
                               metadata: ["error": "\(error.localizedDescription)"])
            }
        } else {
            logger.info("no store at \(storePath): admins' names are left out and the manifest's codes are unchecked")
        }
        var check = ManifestCodeCheck(manifest: manifest, store: store == nil ? nil : storePath, storeWins: request.storeNamed)
        var unclaimed: UnclaimedCodes
        do { unclaimed = try UnclaimedCodes(store: store, refuse: request.refuseUnclaimed) } catch { throw SheetError.input(error) }
        var report = try make(source: .manifest, check: { check }, unmatched: { unclaimed.error }) { renderer throws(InvitationReadError) in
            try ManifestInvitations.forEach(path: manifest, columns: renderer.templateColumns) { invitation in
                // A code edited into the manifest is refused as such, even where the store's would win.
                try SheetRenderer.validate(invitation)
                let known = try store?.manifestFamily(familyId: invitation.familyId, manifestCode: invitation.code)
                let printed = check.resolve(invitation, storeCode: known.map(\.code), repaired: known?.repaired ?? false)
                guard unclaimed.admits(printed) else { return }
                try renderer.add(Invitation(familyId: printed.familyId, familyName: printed.familyName, code: printed.code,
                                            adminName: known?.admin, externalId: printed.externalId, columns: printed.columns))
            }
        }
        if check.outdated > 0 {
            repeated.warning("""
                the manifest \(manifest) is older than the store: \(check.outdated) families have a new \
                code since (\(check.summary)); printed with the store's codes
                """)
        }
        if check.notInStore > 0 {
            logger.warning("""
                \(check.notInStore) families of \(manifest) are not in the store \(storePath): \
                printed with the manifest's codes, unchecked
                """)
        }
        report.unclaimedPrinted = unclaimed.printed
        return report
    }

    /// The PDF of the store's families in `selection`. Families asked for by id or code that the
    /// store does not have refuse the run (before the files are named) rather than printing
    /// fewer than were asked for.
    package func print(_ selection: InvitationSelection, order: InvitationOrder = .created) throws(SheetError) -> SheetsReport {
        var found = Set<String>()
        var unclaimed: UnclaimedCodes
        do { unclaimed = try UnclaimedCodes(store: nil, refuse: false) } catch { throw SheetError.input(error) }
        let unmatched = { () -> SheetError? in
            if let error = unclaimed.error { return error }
            switch selection {
            case .familyIds(let ids):
                let missing = ids.subtracting(found).sorted()
                return missing.isEmpty ? nil : .unmatched(familyIds: missing, codes: 0)
            case .codes(let codes):
                let missing = codes.subtracting(found).count
                return missing == 0 ? nil : .unmatched(familyIds: [], codes: missing)
            default: return nil
            }
        }
        var report = try make(source: .store, unmatched: unmatched) { renderer throws(InvitationReadError) in
            let store = try Self.openStore(storePath)
            unclaimed = try UnclaimedCodes(store: store, refuse: request.refuseUnclaimed)
            try store.forEachInvitation(selection, order: order) { invitation in
                if case .codes = selection { found.insert(invitation.code) } else { found.insert(invitation.familyId.rawValue) }
                guard unclaimed.admits(invitation) else { return }
                try renderer.add(invitation)
            }
        }
        report.unclaimedPrinted = unclaimed.printed
        return report
    }

    /// `--verify`: the PDF read back by poppler and zbar, every card's QR code and printed code
    /// compared with each other and with the families of the manifest or the store.
    package static func verify(_ pdf: String, manifest: String?, storePath: String) throws(SheetError) -> SheetVerifier.Report {
        guard FileManager.default.fileExists(atPath: pdf) else { throw SheetError.verify(reason: "\(pdf) does not exist") }
        let verifier = try SheetVerifier()
        var families: [String: (id: String, name: String)] = [:]
        do throws(InvitationReadError) {
            if let manifest {
                try ManifestInvitations.forEach(path: manifest, columns: []) { families[$0.code] = ($0.familyId.rawValue, $0.familyName) }
            } else {
                try openStore(storePath).forEachInvitation(.all) { families[$0.code] = ($0.familyId.rawValue, $0.familyName) }
            }
        } catch {
            throw SheetError.input(error)
        }
        let report = try verifier.verify(pdf) { families[$0] }
        guard report.passed else { throw SheetError.verifyFailed(report) }
        return report
    }

    private static func openStore(_ path: String) throws(InvitationReadError) -> ReadOnlyStore {
        do { return try TribeBoardStore.openReadOnly(at: path) } catch { throw .store(error) }
    }

    /// The template loaded and checked whole, the families fed to the renderer, the refusals
    /// that stop a run before its files are named, then the files and the report.
    private func make(source: SheetsReport.Source, check: () -> ManifestCodeCheck? = { nil }, unmatched: () -> SheetError? = { nil },
                      _ feed: (SheetRenderer) throws(InvitationReadError) -> Void) throws(SheetError) -> SheetsReport {
        let template: SheetTemplate
        do throws(SheetTemplateError) {
            template = try request.template.map { path throws(SheetTemplateError) in try SheetTemplate.load(path: path) } ?? SheetTemplate.builtIn()
            // Placeholders other than the fields are a manifest's columns: the store has none, so
            // they are named with the template's other problems, all at once.
            var problems = template.problems
            if source == .store, let missing = SheetTemplate.missingColumns(template.columns, available: []) { problems.append(missing) }
            if let error = SheetTemplateError.combined(problems) { throw error }
        } catch {
            throw SheetError.template(error)
        }
        let renderer = try SheetRenderer(outputPath: request.out, preview: request.preview, layout: request.layout, paper: request.paper,
                                         template: template, allowCut: request.allowCut)
        do { try feed(renderer) } catch { throw SheetError.input(error) }
        // Before the files are named: a refused manifest leaves nothing behind.
        if let check = check(), check.refuses { throw SheetError.outdatedManifest(check) }
        if let missing = unmatched() { throw missing }
        try renderer.finish()
        if !renderer.cuts.isEmpty {
            repeated.warning("printed cut (--allow-cut): text that does not fit on \(renderer.cuts.invitations) invitations (the report names them)")
        }
        if !renderer.missingCharacters.isEmpty {
            repeated.warning("""
                \(renderer.missingCharacters.invitations) invitations have characters no installed font \
                has, printed as boxes: \(renderer.missingCharacters.summary)
                """)
        }
        var report = SheetsReport(output: request.out, preview: request.preview, source: source, layout: request.layout, paper: request.paper,
                                  template: request.template ?? "built-in", invitations: renderer.invitations, pages: renderer.pages,
                                  cuts: renderer.cuts, shrunk: renderer.shrunk, manifestCheck: check())
        report.tallerPages = renderer.tallerPages
        report.missingCharacters = renderer.missingCharacters
        return report
    }
}
