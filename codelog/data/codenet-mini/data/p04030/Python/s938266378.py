# ABC043 B - Unhappy Hacking (ABC Edit)
def solve():
    arr = str(input())
    m = []
    for buf in arr:
        if buf=="B":
            try:
                m.pop()
            except IndexError:
                pass
        else:
            m.append(buf)
    print ("".join(m))
if __name__=="__main__":
    solve()
