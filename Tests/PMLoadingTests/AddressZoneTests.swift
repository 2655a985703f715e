import Testing
@testable import PMLoading

/// The zones the SSRF rule tells apart, and the rule itself.
@Suite struct AddressZoneTests {
    @Test(arguments: [
        ("8.8.8.8", AddressZone.public), ("93.184.216.34", .public), ("172.32.0.1", .public), ("100.128.0.1", .public),
        ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("::1", .loopback), ("::ffff:127.0.0.1", .loopback),
        ("10.1.2.3", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("192.168.1.1", .private),
        ("100.64.0.1", .private), ("fc00::1", .private), ("fd12:3456::1", .private), ("::ffff:10.0.0.1", .private),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("64:ff9b::169.254.169.254", .linkLocal),
        ("0.0.0.0", .unspecified), ("::", .unspecified), ("0.1.2.3", .unspecified),
        ("224.0.0.1", .reserved), ("255.255.255.255", .reserved), ("ff02::1", .reserved),
        ("2001:db8::1", .public), ("2606:4700::1111", .public),
    ])
    func classifies(_ address: String, _ zone: AddressZone) {
        #expect(AddressZone.of(address) == zone, "\(address)")
    }

    @Test func textThatIsNoAddressHasNoZone() {
        #expect(AddressZone.of("example.org") == nil)
        #expect(AddressZone.of("127.1") == nil)
    }

    @Test func addressesRoundTripAsText() throws {
        for text in ["127.0.0.2", "::1", "fe80::1", "10.0.0.1"] {
            #expect(IPAddressText.text(try #require(IPAddressText.bytes(text))) == text)
        }
    }

    @Test func aFeedReachesPublicAddressesAndItsOwnZone() {
        #expect(AddressRule.home(.public).admits(.public, first: .public))
        #expect(!AddressRule.home(.public).admits(.loopback, first: .public))
        #expect(!AddressRule.home(.public).admits(.linkLocal, first: .public))
        #expect(AddressRule.home(.loopback).admits(.loopback, first: .public))
        #expect(!AddressRule.home(.loopback).admits(.private, first: .loopback))
        #expect(AddressRule.home(.private).admits(.public, first: .private))
        // The first address a feed request connects to is its home.
        #expect(AddressRule.learnsHome.admits(.loopback, first: .loopback))
        #expect(!AddressRule.learnsHome.admits(.loopback, first: .public))
    }

    @Test func theTestSwitchClassesNamedAddressesAsPublic() throws {
        let classifier = AddressClassifier.fromEnvironment([AddressClassifier.testPublicVariable: "127.0.0.2, 127.0.0.3"])
        #expect(classifier.zone(of: try #require(IPAddressText.bytes("127.0.0.2"))) == .public)
        #expect(classifier.zone(of: try #require(IPAddressText.bytes("127.0.0.3"))) == .public)
        #expect(classifier.zone(of: try #require(IPAddressText.bytes("127.0.0.1"))) == .loopback)
        #expect(AddressClassifier.fromEnvironment([:]).zone(of: try #require(IPAddressText.bytes("127.0.0.2"))) == .loopback)
    }
}
