cur,*k = map(int,open(0).read().split())
mx = max(k)
z = k.index(mx)  # loop
rest = k[:z] + k[z + 1:]
word = max(rest)
for tmp in range(cur):
    if tmp == z:
        print (word)
    else:
        print (mx)
