def resolve(x, lst):
    return x if lst == 0 else resolve(lst, x % lst)


seq, d=(int(v) for v in input().split())
print(resolve(seq, d))
