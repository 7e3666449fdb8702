/// What `tribeboard sheets` did, as text or --json.
package struct SheetsReport: Encodable, Sendable {
    package enum Source: String, Encodable, Sendable { case manifest, store }

    package let output: String
    package let source: Source
    package let layout: SheetLayout
    package let paper: Paper
    /// The template file, or "built-in".
    package let template: String
    package let invitations: Int
    package let pages: Int
    /// The PDF's permission bits: it holds every family's code, so only its owner may read it.
    package let mode = "0600"
    let holdsCodes = true

    package init(output: String, source: Source, layout: SheetLayout, paper: Paper, template: String, invitations: Int, pages: Int) {
        self.output = output
        self.source = source
        self.layout = layout
        self.paper = paper
        self.template = template
        self.invitations = invitations
        self.pages = pages
    }
}
