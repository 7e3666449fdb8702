import ArgumentParser
import Foundation
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardSheets
import TribeBoardStore
import TribeBoardSupport

extension SheetLayout: ExpressibleByArgument {}
extension Paper: ExpressibleByArgument {}
extension InvitationOrder: ExpressibleByArgument {}

/// `tribeboard sheets --out FILE.pdf`: printable invitations, cards or letters, from a manifest or the store.
package struct SheetsCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "sheets",
        abstract: "Print invitations: a PDF with each family's name, code and QR code.",
        discussion: """
            Reads a provision manifest (--manifest) or the store: every family, or those named by \
            --external-id, the rows of --from-import, or a --created-from/--created-to range. The PDF is \
            written owner-only (mode 600: it holds the codes) and appears only once complete.
            Text is set smaller (down to 6 pt on cards, 9 pt on letters) and wrapped to fit; what still does \
            not fit stops the run naming the families, unless --allow-cut. --preview draws the first page as a PNG.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions

    @Option(help: ArgumentHelp("Read the families from this manifest.csv instead of the store.", valueName: "file"))
    package var manifest: String?

    @Option(help: ArgumentHelp("The PDF to write.", valueName: "file.pdf"))
    package var out: String?

    @Option(help: ArgumentHelp("Also (or, without --out, only) draw the first page as a PNG, to check a template.", valueName: "file.png"))
    package var preview: String?

    @Option(help: ArgumentHelp("Check a finished PDF (each QR code decoded and compared with the code printed beside it and with the store's or --manifest's families); with --out naming the same file, once it is made.", valueName: "file.pdf"))
    var verify: String?

    @Flag(help: "Print text that does not fit even in the smallest type cut (\"…\"), counted in the report, instead of refusing.")
    package var allowCut = false

    @Option(help: ArgumentHelp("cards (8 a page, with cut marks) or letters (one a page).", valueName: "layout"))
    package var layout: SheetLayout = .cards

    @Option(help: ArgumentHelp("a4 or letter.", valueName: "paper"))
    package var paper: Paper = .a4

    @Option(help: ArgumentHelp("The wording, organisation, logo and language (see Templates/sheets/).", valueName: "file"))
    package var template: String?

    @Option(name: .customLong("external-id"), help: ArgumentHelp("Only this family (repeatable).", valueName: "id"))
    package var externalIds: [String] = []

    @Option(help: ArgumentHelp("Only the families provisioned from this CSV file.", valueName: "file.csv"))
    var fromImport: String?

    @Option(name: .customLong("map"), help: ArgumentHelp("With --from-import: the --map given to provision for that file (repeatable).", valueName: "header=column"))
    var map: [String] = []

    @Option(name: .customLong("family-id"), help: ArgumentHelp("Only this family, by record id (repeatable).", valueName: "id"))
    var familyIds: [String] = []

    @Option(name: .customLong("code"), help: ArgumentHelp("Only the family holding this code (repeatable).", valueName: "code"))
    var codes: [String] = []

    @Flag(help: "With a remote configured, also print families whose code is not claimed in CloudKit yet (refused otherwise).")
    var includeUnclaimed = false

    @Option(help: ArgumentHelp("The order of the store's families: created, name (case and accents aside) or external-id.", valueName: "order"))
    var sort: InvitationOrder = .created

    @Option(help: ArgumentHelp("Only families created on or after this date (YYYY-MM-DD or ISO 8601, UTC).", valueName: "date"))
    var createdFrom: String?

    @Option(help: ArgumentHelp("Only families created on or before this date (a day includes all of it).", valueName: "date"))
    var createdTo: String?

    package init() {}

    package func validate() throws {
        if let verify {
            if verify.isEmpty { throw ValidationError("--verify needs a PDF.") }
            if let out, out != verify { throw ValidationError("--verify checks the --out PDF once made: name the same file, or leave --out out.") }
            if preview != nil { throw ValidationError("--verify checks a PDF; --preview draws one page of a new one: run them apart.") }
        }
        if out == nil && preview == nil && verify == nil { throw ValidationError("--out FILE.pdf (or --preview FILE.png) is needed.") }
        if out?.isEmpty == true { throw ValidationError("--out needs a file path.") }
        if preview?.isEmpty == true { throw ValidationError("--preview needs a file path.") }
        if let out, out == preview { throw ValidationError("--out and --preview name the same file.") }
        let selectors = [!externalIds.isEmpty, fromImport != nil, createdFrom != nil || createdTo != nil, !familyIds.isEmpty, !codes.isEmpty]
            .filter { $0 }.count
        if selectors > 1 {
            throw ValidationError("pick one selection: --external-id, --family-id, --code, --from-import or --created-from/--created-to.")
        }
        if !map.isEmpty && fromImport == nil { throw ValidationError("--map reads the file of --from-import: give it too.") }
        do { _ = try HeaderMapping(arguments: map) } catch { throw ValidationError(error.localizedDescription) }
        if manifest != nil && selectors > 0 { throw ValidationError("--manifest prints the whole manifest; the selections apply to the store.") }
        if manifest != nil && sort != .created { throw ValidationError("--manifest prints in the manifest's order; --sort applies to the store.") }
        if let bad = (familyIds + codes).first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("--family-id and --code need a value, got \"\(bad)\".")
        }
        if let bad = externalIds.first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("--external-id needs a value, got \"\(bad)\".")
        }
        let from = try createdFrom.map { try Self.storeTime($0, endOfDay: false, option: "--created-from") }
        let to = try createdTo.map { try Self.storeTime($0, endOfDay: true, option: "--created-to") }
        if let from, let to, from > to { throw ValidationError("--created-from is after --created-to.") }
    }


    /// Reading the store and drawing the PDF blocks: it runs on a thread of its own (`PipelineThread`).
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.sheets")
        let request = Self.Request(out: out, layout: layout, paper: paper, template: template, preview: preview, allowCut: allowCut,
                                   storeNamed: Self.storeNamed, refuseUnclaimed: !includeUnclaimed && Self.remoteConfigured)
        if let verify, out == nil {
            try context.emit(try Self.check(verify, manifest: manifest, storePath: global.store, context: context), text: SheetsReportText.verification)
            return
        }
        var report: SheetsReport
        if let manifest {
            report = try Self.render(request, fromManifest: manifest, storePath: global.store, context: context)
        } else {
            let selection: InvitationSelection
            if !externalIds.isEmpty {
                selection = .externalIds(Set(externalIds.map { $0.trimmingCharacters(in: .whitespaces) }))
            } else if !familyIds.isEmpty {
                selection = .familyIds(Set(familyIds.map { $0.trimmingCharacters(in: .whitespaces) }))
            } else if !codes.isEmpty {
                selection = .codes(Set(codes.map(Self.typedCode)))
            } else if let fromImport {
                // Checked in validate().
                let mapping = (try? HeaderMapping(arguments: map)) ?? HeaderMapping()
                selection = .importFile(path: fromImport, mapping: mapping)
            } else if createdFrom != nil || createdTo != nil {
                selection = .created(from: try createdFrom.map { try Self.storeTime($0, endOfDay: false, option: "--created-from") },
                                     to: try createdTo.map { try Self.storeTime($0, endOfDay: true, option: "--created-to") })
            } else {
                selection = .all
            }
            report = try Self.render(request, selection: selection, order: sort, storePath: global.store, context: context)
        }
        if let verify {
            report.verification = try Self.check(verify, manifest: manifest, storePath: global.store, context: context)
        }
        try context.emit(report, text: SheetsReportText.render)
    }

    /// `--verify`: the PDF read back by poppler and zbar, every card's QR code and printed code
    /// compared with each other and with the families of the manifest or the store.
    static func check(_ pdf: String, manifest: String?, storePath: String, context: CommandContext) throws -> SheetVerifier.Report {
        do {
            guard FileManager.default.fileExists(atPath: pdf) else {
                throw SheetError.verify(reason: "\(pdf) does not exist")
            }
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
        } catch {
            throw context.fail(error, Self.exits)
        }
    }

    /// A code as a person types it ("vklkz5 "): as the app reads one, trimmed and upper-cased; one
    /// not in the app's format is kept as typed, to be reported unmatched.
    static func typedCode(_ text: String) -> String {
        (try? FamilyCode(validating: text))?.value ?? text.trimmingCharacters(in: .whitespaces)
    }

    struct Request {
        let out: String?
        let layout: SheetLayout
        let paper: Paper
        let template: String?
        var preview: String? = nil
        var allowCut = false
        /// The store was named (--store, TRIBEBOARD_STORE): its codes win over a manifest's.
        var storeNamed = true
        /// A remote is configured and --include-unclaimed was not given: a code the store holds
        /// no claim of is refused (`SheetError.unclaimed`).
        var refuseUnclaimed = false
    }

    /// Whether the environment or its config file configures a remote (sheets takes no remote
    /// flags: it never talks to CloudKit; `provision --sheets` says it with its own client).
    static var remoteConfigured: Bool {
        (try? CloudKitConfiguration.resolve(.init(), environment: ProcessInfo.processInfo.environment))?.isConfigured == true
    }

    /// Families whose code the store holds no claim of, as `refuseUnclaimed` refuses them.
    struct UnclaimedCodes {
        /// Every claim the store remembers, read before the invitations (which are read inside
        /// a store read that cannot be re-entered); nil when nothing is refused.
        private let claimed: Set<TribeBoardStore.ClaimedCode>?
        private(set) var ids: [String] = []
        private(set) var count = 0
        /// The store read, for the advice (`resync` claims the codes).
        private let storePath: String

        init(store: TribeBoardStore?, refuse: Bool) throws(InvitationReadError) {
            storePath = store?.path ?? ""
            guard refuse, let store else {
                claimed = nil
                return
            }
            var all = Set<TribeBoardStore.ClaimedCode>()
            var after = ""
            do {
                while true {
                    let page = try store.rememberedClaims(after: after, limit: 10_000)
                    guard let last = page.last else { break }
                    all.formUnion(page)
                    after = last.code
                }
            } catch {
                throw .store(error)
            }
            claimed = all
        }

        /// Whether `invitation` may be printed; an unclaimed one is counted instead.
        mutating func admits(_ invitation: Invitation) -> Bool {
            guard let claimed else { return true }
            let id = invitation.familyId.rawValue
            if claimed.contains(.init(familyID: id, code: CodeClaim.normalise(invitation.code))) { return true }
            count += 1
            if ids.count < 20 { ids.append(id) }
            return false
        }

        var error: SheetError? { count == 0 ? nil : .unclaimed(familyIds: ids, count: count, store: storePath) }
    }

    /// Whether the store was named rather than found at its default path: ArgumentParser gives
    /// the default and a given value alike.
    static var storeNamed: Bool {
        if ProcessInfo.processInfo.environment["TRIBEBOARD_STORE"] != nil { return true }
        let arguments = CommandLine.arguments.prefix { $0 != "--" }
        return arguments.contains { $0 == "--store" || $0.hasPrefix("--store=") }
    }

    static func render(_ request: Request, fromManifest manifest: String, storePath: String,
                       context: CommandContext) throws -> SheetsReport {
        do { return try make(request, fromManifest: manifest, storePath: storePath, context: context) } catch {
            throw context.fail(error, Self.exits)
        }
    }

    /// The PDF of a manifest, its failure returned rather than reported: `provision --sheets`
    /// puts it in its own report, beside what was provisioned.
    static func make(_ request: Request, fromManifest manifest: String, storePath: String,
                     context: CommandContext) throws(SheetError) -> SheetsReport {
        // The manifest does not carry the admin, and its codes may be older than the store's.
        var store: TribeBoardStore?
        if FileManager.default.fileExists(atPath: storePath) {
            do {
                store = try TribeBoardStore.openReadOnly(at: storePath)
            } catch {
                // A store named to settle the codes must be read; one only found is a bonus.
                if request.storeNamed { throw SheetError.input(.store(error)) }
                context.logger.warning("cannot read the store: admins' names are left out and the manifest's codes are unchecked",
                                       metadata: ["error": "\(error.localizedDescription)"])
            }
        } else {
            context.logger.info("no store at \(storePath): admins' names are left out and the manifest's codes are unchecked")
        }
        var check = ManifestCodeCheck(manifest: manifest, store: store == nil ? nil : storePath, storeWins: request.storeNamed)
        var unclaimed: UnclaimedCodes
        do { unclaimed = try UnclaimedCodes(store: store, refuse: request.refuseUnclaimed) } catch { throw SheetError.input(error) }
        let report = try make(request, source: .manifest, context: context, check: { check },
                              unmatched: { unclaimed.error }) { renderer throws(InvitationReadError) in
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
        // The summary says it on a terminal (provision --sheets prints a fresh manifest: never outdated).
        if check.outdated > 0, !context.summaryOnTerminal {
            context.logger.warning("the manifest \(manifest) is older than the store: \(check.outdated) families have a new code since (\(check.summary)); printed with the store's codes")
        }
        if check.notInStore > 0 {
            context.logger.warning("\(check.notInStore) families of \(manifest) are not in the store \(storePath): printed with the manifest's codes, unchecked")
        }
        return report
    }

    static func render(_ request: Request, selection: InvitationSelection, order: InvitationOrder = .created, storePath: String,
                       context: CommandContext) throws -> SheetsReport {
        // Families asked for by id or code that the store does not have: the run is refused
        // (before the files are named) rather than printing fewer than were asked for.
        var found = Set<String>()
        var unclaimed = try UnclaimedCodes(store: nil, refuse: false)
        let unmatched = { () -> SheetError? in
            if let error = unclaimed.error { return error }
            switch selection {
            case .familyIds(let ids): let missing = ids.subtracting(found).sorted(); return missing.isEmpty ? nil : .unmatched(familyIds: missing, codes: 0)
            case .codes(let codes): let missing = codes.subtracting(found).count; return missing == 0 ? nil : .unmatched(familyIds: [], codes: missing)
            default: return nil
            }
        }
        return try run(request, source: .store, context: context, unmatched: unmatched) { renderer throws(InvitationReadError) in
            let store = try openStore(storePath)
            unclaimed = try UnclaimedCodes(store: store, refuse: request.refuseUnclaimed)
            try store.forEachInvitation(selection, order: order) { invitation in
                if case .codes = selection { found.insert(invitation.code) } else { found.insert(invitation.familyId.rawValue) }
                guard unclaimed.admits(invitation) else { return }
                try renderer.add(invitation)
            }
        }
    }

    private static func openStore(_ path: String) throws(InvitationReadError) -> TribeBoardStore {
        do { return try TribeBoardStore.openReadOnly(at: path) } catch { throw .store(error) }
    }

    private static func run(_ request: Request, source: SheetsReport.Source, context: CommandContext,
                            unmatched: () -> SheetError? = { nil },
                            _ feed: (SheetRenderer) throws(InvitationReadError) -> Void) throws -> SheetsReport {
        do { return try make(request, source: source, context: context, unmatched: unmatched, feed) } catch {
            throw context.fail(error, Self.exits)
        }
    }

    private static func make(_ request: Request, source: SheetsReport.Source, context: CommandContext,
                             check: () -> ManifestCodeCheck? = { nil }, unmatched: () -> SheetError? = { nil },
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
        // The summary names them on a terminal (provision --sheets never allows a cut).
        if !renderer.cuts.isEmpty, !context.summaryOnTerminal {
            context.logger.warning("printed cut (--allow-cut): text that does not fit on \(renderer.cuts.invitations) invitations (the report names them)")
        }
        var report = SheetsReport(output: request.out, preview: request.preview, source: source, layout: request.layout, paper: request.paper,
                                  template: request.template ?? "built-in", invitations: renderer.invitations, pages: renderer.pages,
                                  cuts: renderer.cuts, shrunk: renderer.shrunk, manifestCheck: check())
        report.tallerPages = renderer.tallerPages
        return report
    }

    /// A date from the command line as the store writes times (`Timestamp`'s text), so that
    /// text comparison is time comparison. A bare day covers the whole of it.
    static func storeTime(_ text: String, endOfDay: Bool, option: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let day = trimmed.count == 10 ? Timestamp(text: trimmed + "T00:00:00Z") : nil
        // 1970 to the end of 9999: what four-digit years and the store's text sort can hold.
        guard let time = day ?? Timestamp(text: trimmed), Timestamp.supportedMilliseconds.contains(time.milliseconds) else {
            throw ValidationError("\(option) takes a date (2026-11-01) or a UTC time (2026-11-01T08:00:00Z), got \"\(text)\".")
        }
        guard day != nil else { return time.text }
        return trimmed + (endOfDay ? "T23:59:59.999Z" : "T00:00:00.000Z")
    }
}
