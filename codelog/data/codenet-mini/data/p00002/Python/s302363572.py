# -*- coding: utf-8 -*-
import sys  # 入力
print("\n".join(str(len(str(sum(map(int, l.split()))))) for l in sys.stdin))
