/// What `tribeboard sheets` did, as text or --json.
public struct SheetsReport: Encodable, Sendable {
    public enum Source: String, Encodable, Sendable { case manifest, store }

    public let output: String
    public let source: Source
    public let layout: SheetLayout
    public let paper: Paper
    /// The template file, or "built-in".
    public let template: String
    public let invitations: Int
    public let pages: Int
    /// The PDF's permission bits: it holds every family's code, so only its owner may read it.
    public let mode = "0600"
    public let holdsCodes = true

    public init(output: String, source: Source, layout: SheetLayout, paper: Paper, template: String, invitations: Int, pages: Int) {
        self.output = output
        self.source = source
        self.layout = layout
        self.paper = paper
        self.template = template
        self.invitations = invitations
        self.pages = pages
    }
}
