"""Decodes QR codes with zxing-cpp (a decoder we did not write) for the JS tests.

Reads one JSON object per line on stdin: {"id": n, "png": "<base64>"}.
Writes one JSON object per line: {"id": n, "found": bool, "bytes": "<base64>", "version": str}.
"""
import base64
import io
import json
import sys

import zxingcpp
from PIL import Image


def decode(png_bytes):
    image = Image.open(io.BytesIO(png_bytes)).convert("L")
    results = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    if not results:
        return {"found": False}
    r = results[0]
    return {"found": True, "bytes": base64.b64encode(r.bytes).decode(), "version": r.symbology_identifier}


for line in sys.stdin:
    request = json.loads(line)
    try:
        answer = decode(base64.b64decode(request["png"]))
    except Exception as e:  # a broken image is a test failure, reported, not a crash
        answer = {"found": False, "error": str(e)}
    answer["id"] = request["id"]
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
