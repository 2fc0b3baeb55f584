# The boot image: build/<app>.efi and its ESP disk image build/<app>.img.
# (Filled in by the boot/kernel work: see issue 2.)
.PHONY: image run
image:
	@echo "image: not built yet"; exit 1
run: image
