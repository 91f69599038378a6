# -*- coding: utf-8 -*-
input()
a = list(map(int,input().split()))  # O(N)
n = len(a)
b = [a[n-1-i] for i in range(n)]
print(" ".join(map(str,b)))
