"""A YOLOv8-style detector written out in PyTorch (no weights download, no ultralytics): a CSP
backbone of C2f blocks, SPPF, a path-aggregation neck (nearest upsampling, concatenations) and a
decoupled head whose boxes are decoded as YOLOv8 does (distribution focal loss: a softmax over 16
bins per side, its expectation, anchor points, strides). The operators it exports to are those of
the real model: Conv, Sigmoid, Mul, Split, Concat, MaxPool, Resize, Reshape, Transpose, Softmax,
Sub, Add, Div.
"""
import torch
from torch import nn


class ConvBnSiLU(nn.Module):
    def __init__(self, c_in, c_out, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    def __init__(self, c, shortcut=True):
        super().__init__()
        self.cv1 = ConvBnSiLU(c, c, 3)
        self.cv2 = ConvBnSiLU(c, c, 3)
        self.add = shortcut

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C2f(nn.Module):
    def __init__(self, c_in, c_out, n=1, shortcut=True):
        super().__init__()
        self.c = c_out // 2
        self.cv1 = ConvBnSiLU(c_in, 2 * self.c)
        self.cv2 = ConvBnSiLU((2 + n) * self.c, c_out)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).split((self.c, self.c), 1))
        for m in self.m:
            y.append(m(y[-1]))
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, c_in, c_out, k=5):
        super().__init__()
        c = c_in // 2
        self.cv1 = ConvBnSiLU(c_in, c)
        self.cv2 = ConvBnSiLU(c * 4, c_out)
        self.m = nn.MaxPool2d(k, 1, k // 2)

    def forward(self, x):
        x = self.cv1(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))


class Detect(nn.Module):
    def __init__(self, nc, channels, strides, reg_max=16):
        super().__init__()
        self.nc, self.reg_max, self.strides = nc, reg_max, strides
        c2, c3 = max(16, channels[0] // 4, reg_max * 4), max(channels[0], nc)
        self.box = nn.ModuleList(
            nn.Sequential(ConvBnSiLU(c, c2, 3), ConvBnSiLU(c2, c2, 3), nn.Conv2d(c2, 4 * reg_max, 1)) for c in channels)
        self.cls = nn.ModuleList(
            nn.Sequential(ConvBnSiLU(c, c3, 3), ConvBnSiLU(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for c in channels)
        self.register_buffer("bins", torch.arange(reg_max, dtype=torch.float32).view(1, reg_max, 1, 1))

    def forward(self, feats):
        boxes, scores, anchors, strides = [], [], [], []
        for i, f in enumerate(feats):
            b, _, h, w = f.shape
            boxes.append(self.box[i](f).view(b, 4 * self.reg_max, h * w))
            scores.append(self.cls[i](f).view(b, self.nc, h * w))
            ys, xs = torch.meshgrid(torch.arange(h) + 0.5, torch.arange(w) + 0.5, indexing="ij")
            anchors.append(torch.stack((xs, ys), 0).view(2, h * w))
            strides.append(torch.full((1, h * w), float(self.strides[i])))
        box = torch.cat(boxes, 2)                                    # [b, 64, A]
        a = box.shape[2]
        # DFL: softmax over the 16 bins of each side, then the expected bin.
        dist = box.view(box.shape[0], 4, self.reg_max, a).transpose(1, 2).softmax(1)  # [b, 16, 4, A]
        dist = (dist * self.bins).sum(1)                             # [b, 4, A]
        lt, rb = dist.split((2, 2), 1)
        anchor = torch.cat(anchors, 1).unsqueeze(0)
        stride = torch.cat(strides, 1).unsqueeze(0)
        xy = (anchor + (rb - lt) / 2) * stride
        wh = (lt + rb) * stride
        return torch.cat((xy, wh), 1), torch.cat(scores, 2).sigmoid()


class Detector(nn.Module):
    """YOLOv8n-like proportions, nc classes; input sizes divisible by 32."""

    def __init__(self, nc=8, w=(16, 32, 64, 128, 256)):
        super().__init__()
        self.stem = nn.Sequential(ConvBnSiLU(3, w[0], 3, 2), ConvBnSiLU(w[0], w[1], 3, 2), C2f(w[1], w[1], 1))
        self.p3 = nn.Sequential(ConvBnSiLU(w[1], w[2], 3, 2), C2f(w[2], w[2], 2))
        self.p4 = nn.Sequential(ConvBnSiLU(w[2], w[3], 3, 2), C2f(w[3], w[3], 2))
        self.p5 = nn.Sequential(ConvBnSiLU(w[3], w[4], 3, 2), C2f(w[4], w[4], 1), SPPF(w[4], w[4]))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.n4 = C2f(w[4] + w[3], w[3], 1, False)
        self.n3 = C2f(w[3] + w[2], w[2], 1, False)
        self.d3 = ConvBnSiLU(w[2], w[2], 3, 2)
        self.m4 = C2f(w[2] + w[3], w[3], 1, False)
        self.d4 = ConvBnSiLU(w[3], w[3], 3, 2)
        self.m5 = C2f(w[3] + w[4], w[4], 1, False)
        self.detect = Detect(nc, (w[2], w[3], w[4]), (8, 16, 32))

    def forward(self, x):
        x3 = self.p3(self.stem(x))
        x4 = self.p4(x3)
        x5 = self.p5(x4)
        t4 = self.n4(torch.cat((self.up(x5), x4), 1))
        o3 = self.n3(torch.cat((self.up(t4), x3), 1))
        o4 = self.m4(torch.cat((self.d3(o3), t4), 1))
        o5 = self.m5(torch.cat((self.d4(o4), x5), 1))
        return self.detect([o3, o4, o5])


class DetectorWithSequenceHead(nn.Module):
    """The detector plus a recurrent head over its stride-32 features read as a sequence (row-major
    cells), as trackers and video heads add one: LSTM or GRU, then a per-cell linear layer."""

    def __init__(self, cell="LSTM", hidden=48, classes=8):
        super().__init__()
        self.detector = Detector()
        channels = 256
        rnn = nn.LSTM if cell == "LSTM" else nn.GRU
        self.rnn = rnn(channels, hidden, num_layers=1, bidirectional=cell == "LSTM")
        self.fc = nn.Linear(hidden * (2 if cell == "LSTM" else 1), classes)

    def forward(self, x):
        d = self.detector
        x3 = d.p3(d.stem(x))
        x4 = d.p4(x3)
        x5 = d.p5(x4)
        seq = x5.flatten(2).permute(2, 0, 1)  # [cells, batch, channels]
        out, _ = self.rnn(seq)
        return d(x) + (self.fc(out),)


class Crnn(nn.Module):
    """A small CRNN text recognizer (as PP-OCR's rec and its ancestors): a conv stack that pools the
    height away, a two-layer bidirectional LSTM over the columns, per-column class logits (CTC)."""

    def __init__(self, classes=37, hidden=64):
        super().__init__()
        def block(c_in, c_out, pool):
            return nn.Sequential(nn.Conv2d(c_in, c_out, 3, 1, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(),
                                 nn.MaxPool2d(pool))
        self.cnn = nn.Sequential(block(1, 32, 2), block(32, 64, 2), block(64, 96, (2, 1)), block(96, 128, (4, 1)))
        self.rnn = nn.LSTM(128, hidden, num_layers=2, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, x):  # x: [batch, 1, 32, width]
        f = self.cnn(x).squeeze(2).permute(2, 0, 1)  # [columns, batch, 128]
        out, _ = self.rnn(f)
        return self.fc(out).log_softmax(2)


class TwoStageHead(nn.Module):
    """The second stage of a Faster / Mask R-CNN-style detector: a small backbone, fixed proposals
    (a first stage's output, constant here) pooled by RoiAlign (aligned, as Mask R-CNN; and
    unaligned, the opset-10 coordinates) and by MaxRoiPool (Fast R-CNN), then a box head."""

    def __init__(self, classes=8):
        super().__init__()
        self.backbone = nn.Sequential(ConvBnSiLU(3, 16, 3, 2), ConvBnSiLU(16, 32, 3, 2), ConvBnSiLU(32, 64, 3, 2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 7 * 7, 128), nn.ReLU())
        self.cls = nn.Linear(128, classes)
        self.box = nn.Linear(128, 4 * classes)
        # [batch, x1, y1, x2, y2] in input pixels, some reaching past the 128 x 128 image.
        self.register_buffer("proposals", torch.tensor([[0, 4.0, 6.0, 60.0, 70.0], [0, 30.0, 10.0, 126.0, 90.0],
                                                        [0, 50.0, 40.0, 140.0, 135.0], [0, 0.0, 0.0, 127.0, 127.0],
                                                        [0, 70.5, 20.25, 80.75, 33.5]]))

    def forward(self, x):
        import torchvision
        f = self.backbone(x)  # stride 8
        aligned = torchvision.ops.roi_align(f, self.proposals, (7, 7), 1 / 8, 2, aligned=True)
        legacy = torchvision.ops.roi_align(f, self.proposals, (7, 7), 1 / 8, 0, aligned=False)
        pooled = torchvision.ops.roi_pool(f, self.proposals, (7, 7), 1 / 8)
        h = self.head(torch.cat([aligned, legacy, pooled], 1))
        return self.cls(h), self.box(h)
