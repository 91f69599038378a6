n,*a=map(int,open(0).read().split())
for x in a:

    print(max(a))
