result, q, x, m = map(int, open(0).read().split())  # main
text = result*q*0.5
arr = int(x==result/2 and m==q/2)  # loop
print("%.6f %d"%(text, arr))
