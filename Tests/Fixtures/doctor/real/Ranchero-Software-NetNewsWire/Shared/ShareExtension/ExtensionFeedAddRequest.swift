


















	let name: String?
	let feedURL: URL
	let destinationContainerID: ContainerIdentifier

}
