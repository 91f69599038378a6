# -*- coding: utf-8 -*-
n = int(input())  # ループ
a = list(map(int, input().split()))
print(" ".join(str(a[n - i]) for i in range(n)))
