def helper():
        o = int(input())
        val = []
        for _ in range(o):
                val.append(int(input()))
        # solve
        mn = val[:]
        bb = True
        while bb:
                bb = False
                # main
                for left in range(o-1):
                        if mn[left]<=mn[left+1]:
                                mn[left], mn[left+1] = mn[left+1], mn[left]
                                bb = True
        for acc in val:
                print(mn[1] if acc==mn[0] else mn[0])


if __name__=="__main__":
        helper()
