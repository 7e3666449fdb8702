/// What `tribeboard sheets` did, as text or --json.
package struct SheetsReport: Encodable, Sendable {
    package enum Source: String, Encodable, Sendable { case manifest, store }

    /// The PDF, or nil for a run that only drew the preview.
    package let output: String?
    /// The PNG of the first page (`--preview`), when asked for.
    package let preview: String?
    package let source: Source
    package let layout: SheetLayout
    package let paper: Paper
    /// The template file, or "built-in".
    package let template: String
    package let invitations: Int
    package let pages: Int
    /// Text printed cut, which only `--allow-cut` accepts (without it the run fails instead).
    package let cuts: TextCuts
    /// Invitations whose title or wording was set in smaller type to fit.
    package let shrunk: Int
    /// Characters printed as boxes: no installed face has them.
    package var missingCharacters = MissingCharacters()
    /// Pages of cards set 3 or 2 to a column (taller cards) so that their text fits whole.
    package var tallerPages = 0
    /// Cards whose code the store holds no CloudKit claim of, printed because no remote is
    /// configured or --include-unclaimed was given: until a claim is made, another device could
    /// take such a code.
    package var unclaimedPrinted = 0
    /// `--verify` with `--out`: the PDF read back once made.
    package var verification: SheetVerifier.Report?
    /// From a manifest: its codes checked against the store.
    package let manifestCheck: ManifestCodeCheck?
    /// The PDF's permission bits: it holds every family's code, so only its owner may read it.
    package let mode = "0600"
    let holdsCodes = true

    package init(
        output: String?, preview: String?, source: Source, layout: SheetLayout, paper: Paper,
        template: String,
        invitations: Int, pages: Int, cuts: TextCuts, shrunk: Int, manifestCheck: ManifestCodeCheck?
    ) {
        self.manifestCheck = manifestCheck
        self.output = output
        self.preview = preview
        self.cuts = cuts
        self.shrunk = shrunk
        self.source = source
        self.layout = layout
        self.paper = paper
        self.template = template
        self.invitations = invitations
        self.pages = pages
    }
}
