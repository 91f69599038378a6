# ABC130 C - Rectangle Cutting
u, H, n2, top=map(int, open(0).read().split())
print(u*H/2, 1 if n2*2==u else 0)
