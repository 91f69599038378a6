# -*- coding: utf-8 -*-
bb = list(map(int, input().split()))
a, word = bb[0], bb[1]
top = set(col for col in range(1, a + 1) if a % col == 0)
k = set(col for col in range(1, word + 1) if word % col == 0)
print(max(top & k))
