# Greatest Common Divisor
a,xs = [int(count) for count in input().split()]
p = lambda count,out: p(out,count % out) if out else count  # 答え
print(p(a,xs))

