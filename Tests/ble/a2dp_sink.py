#!/usr/bin/env python3
"""Headphones for the Bluetooth VM: an A2DP sink made with Bumble (an A2DP stack independent of
BlueZ's) on one of btvirt's controllers (BR/EDR and LE), through btvirt's server socket. It pairs (just works),
takes the wearable's SBC stream and writes every SBC frame it receives to OUT.sbc, and one JSON line
per media packet to OUT.jsonl: the monotonic time of its arrival, its RTP sequence number and
timestamp, its frame count. `sbcdec` (sbc-tools) decodes OUT.sbc afterwards.

Prints "ADDRESS XX:XX:XX:XX:XX:XX" and then "READY" once discoverable and connectable.
Usage: a2dp_sink.py --transport unix:/tmp/bt-server-bredrle --out /mnt/out/far"""
import argparse
import asyncio
import json
import time

from bumble.a2dp import A2DP_SBC_CODEC_TYPE, SbcMediaCodecInformation, make_audio_sink_service_sdp_records
from bumble.avdtp import AVDTP_AUDIO_MEDIA_TYPE, Listener, MediaCodecCapabilities
from bumble.device import Device, DeviceConfiguration
from bumble.pairing import PairingConfig
from bumble.transport import open_transport


def sbc_capabilities():
    info = SbcMediaCodecInformation
    return MediaCodecCapabilities(
        media_type=AVDTP_AUDIO_MEDIA_TYPE,
        media_codec_type=A2DP_SBC_CODEC_TYPE,
        media_codec_information=SbcMediaCodecInformation(
            sampling_frequency=info.SamplingFrequency.SF_16000 | info.SamplingFrequency.SF_32000
            | info.SamplingFrequency.SF_44100 | info.SamplingFrequency.SF_48000,
            channel_mode=info.ChannelMode.MONO | info.ChannelMode.DUAL_CHANNEL | info.ChannelMode.STEREO
            | info.ChannelMode.JOINT_STEREO,
            block_length=info.BlockLength.BL_4 | info.BlockLength.BL_8 | info.BlockLength.BL_12
            | info.BlockLength.BL_16,
            subbands=info.Subbands.S_4 | info.Subbands.S_8,
            allocation_method=info.AllocationMethod.LOUDNESS | info.AllocationMethod.SNR,
            minimum_bitpool_value=2,
            maximum_bitpool_value=53,
        ),
    )


async def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--transport", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    sbc = open(args.out + ".sbc", "wb")
    packets = open(args.out + ".jsonl", "w")

    def note(what, **fields):
        packets.write(json.dumps({"t": round(time.monotonic(), 4), "event": what, **fields}) + "\n")
        packets.flush()

    def on_packet(packet):
        payload = packet.payload
        sbc.write(payload[1:])
        sbc.flush()
        note("media", seq=packet.sequence_number, ts=packet.timestamp, frames=payload[0] & 0x0F,
             bytes=len(payload) - 1)

    def on_avdtp(protocol):
        note("avdtp")
        sink = protocol.add_sink(sbc_capabilities())
        sink.on("rtp_packet", on_packet)
        sink.on("start", lambda: note("start"))
        sink.on("suspend", lambda: note("suspend"))
        sink.on("stop", lambda: note("stop"))
        sink.on("configuration", lambda: note("configuration", config=[str(c) for c in sink.configuration]))

    async with await open_transport(args.transport) as (hci_source, hci_sink):
        config = DeviceConfiguration()
        config.name = "Virtual Headphones"
        config.class_of_device = 0x240404
        config.classic_enabled = True
        config.le_enabled = False
        device = Device.from_config_with_hci(config, hci_source, hci_sink)
        device.sdp_service_records = {0x00010001: make_audio_sink_service_sdp_records(0x00010001)}
        device.pairing_config_factory = lambda connection: PairingConfig(mitm=False)
        device.on("connection", lambda connection: note("connection", peer=str(connection.peer_address)))
        await device.power_on()
        print(f"ADDRESS {device.public_address.to_string(with_type_qualifier=False)}", flush=True)
        Listener.for_device(device).on("connection", on_avdtp)
        await device.set_discoverable(True)
        await device.set_connectable(True)
        print("READY", flush=True)
        await hci_source.terminated


if __name__ == "__main__":
    asyncio.run(main())
