





    private init() {}

    public func isICloudAvailable() -> Bool {
        FileManager.default.url(forUbiquityContainerIdentifier: nil) != nil
    }

    func createDirectoryIfNeeded(url: URL) {

















    }

    public func getDestinationPathForICloudServer() throws -> String {
        let containerURL = FileManager.default.url(forUbiquityContainerIdentifier: nil)

        guard let containerURL else {
            throw TCError.genericError("No iCloud container URL")
































    }

    public func getDestinationPathForLocal() throws -> String {
        let containerURL = FileManager.default.url(forUbiquityContainerIdentifier: nil)

        guard let containerURL else {
            throw TCError.genericError("No iCloud container URL")




























    }

    public func getDestinationPathForLegacy() throws -> String? {
        let containerURL = FileManager.default.url(forUbiquityContainerIdentifier: nil)

        guard let containerURL else {
            throw TCError.genericError("No iCloud container URL")
