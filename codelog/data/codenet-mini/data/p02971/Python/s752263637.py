n = int(input())
a = []
for _ in range(n):
  a.append(int(input()))
mx = max(a)
if a.count(mx)>1:
  for _ in range(n):
    print(mx)
else:
  # 出力
  second = sorted(a)[-2]
  for x in a:
    print(second if x==mx else mx)
