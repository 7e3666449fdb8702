
















		return .read
	}

	public var containerID: ContainerIdentifier? {
		ContainerIdentifier.folder(accountID, nameForDisplay)
	}

	public var sidebarItemID: SidebarItemIdentifier? {
